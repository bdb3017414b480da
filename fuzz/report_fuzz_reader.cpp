// libFuzzer target: the files `syncstress replay REPORT` and `syncstress gate` read, a report
// or a baseline, taken through what those commands do with them: the shared JSON reader, the
// report's checks and the baseline's, its cells read through the codec, the comparison with the
// committed baseline, JUnit, the schedule strings of the violations, and `gate
// --write-baseline`.
//
// What must hold for every input: each reader accepts it or throws UsageError, and what it
// accepts the gate compares without throwing; the baseline written from an accepted report is
// itself accepted, and the report passes it with no difference. Any other exception, a crash, a
// sanitizer report or a difference is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "report/gate.hpp"
#include "report/report.hpp"
#include "report/typed_report.hpp"
#include "schedules/schedule_codec.hpp"
#include "schedules/strategy_spec.hpp"
#include "util/json_input.hpp"
#include "util/usage_error.hpp"

namespace syncstress {
namespace {

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "finding: %s\n", what.c_str());
  std::abort();
}

const std::filesystem::path kSource = SYNCSTRESS_SOURCE_DIR;

/// The committed baseline, read once: what `gate` compares reports with by default.
const std::vector<report::Expectation>& committed_baseline() {
  static const auto baseline = report::read_baseline(kSource / "results/baseline.json");
  return baseline;
}

/// The cells of a real report of the seed corpus, read once: what a fuzzed baseline is compared
/// with.
const std::vector<CellResult>& real_cells() {
  static const std::filesystem::path path =
      kSource / "fuzz/corpus/report_fuzz_reader/report-exhaustive-cancellation.json";
  static const std::vector<CellResult> cells = report::read_cells(report::read_report(path), path);
  return cells;
}

void as_report(const nlohmann::json& doc) {
  std::vector<CellResult> cells;
  try {
    report::check_report(doc, "fuzz-report.json");
    cells = report::read_cells(doc, "fuzz-report.json");
  } catch (const UsageError&) {
    return;
  }
  for (const bool require_all : {false, true}) {
    report::junit_xml(report::compare_with_baseline(committed_baseline(), cells, require_all));
  }
  for (const auto& cell : cells) {
    for (const auto& violation : cell.violations) {
      try {
        parse_schedule_string(violation.schedule);
      } catch (const ScheduleFormatError&) {
      }
    }
  }
  nlohmann::json written;
  try {
    written = report::baseline_from_cells(cells);
  } catch (const UsageError&) {
    return;  // a report no baseline can describe (one cell, two verdicts): said so
  }
  std::vector<report::Expectation> expectations;
  try {
    expectations = report::parse_baseline(written, "written-baseline.json");
  } catch (const UsageError& e) {
    finding(std::string("the baseline written from a report is refused: ") + e.what());
  }
  const auto result = report::compare_with_baseline(expectations, cells, true);
  if (result.differences != 0) finding("a report differs from the baseline written from it");
}

void as_baseline(const nlohmann::json& doc) {
  try {
    const auto expectations = report::parse_baseline(doc, "fuzz-baseline.json");
    for (const bool require_all : {false, true}) {
      report::junit_xml(report::compare_with_baseline(expectations, real_cells(), require_all));
    }
  } catch (const UsageError&) {
  }
}

}  // namespace
}  // namespace syncstress

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace syncstress;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  nlohmann::json doc;
  try {
    doc = parse_json_input(text, "fuzz.json");
  } catch (const UsageError&) {
    return 0;
  }
  as_report(doc);
  as_baseline(doc);
  return 0;
}
