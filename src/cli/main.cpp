// syncstress: finds bugs in synchronization primitives. See README.md.
#include <iostream>

#include "cli/commands.hpp"

int main(int argc, char** argv) {
  return syncstress::cli::run_cli(argc, argv, std::cout, std::cerr);
}
