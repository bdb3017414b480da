// The line citations of the source documents in primitives/ are true. Every comment of a
// header in primitives/ and every line of primitives/README.md is read; a citation has the
// form that README describes ("Citing the documents"): `document NNN lines A-B` followed by
// backquoted tokens. Each cited range must exist in ../shared/seeds/NNN_*.txt, counted as
// grep -n counts, and hold one of the tokens named with it; a line number written any other
// way fails too, so a new citation cannot slip past unchecked.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace syncstress {
namespace primitives_citations_test {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = SYNCSTRESS_SOURCE_DIR;
// The seeds sit beside the repository, in the project's shared folder (primitives/README.md).
const fs::path kSeedsDir = kSourceDir / ".." / "shared" / "seeds";

std::vector<std::string> read_lines(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// Each document's lines by its three-digit number ("003"), from the file NNN_*.txt.
using Documents = std::map<std::string, std::vector<std::string>>;

Documents read_documents(const fs::path& dir) {
  Documents docs;
  if (!fs::is_directory(dir)) return docs;
  static const std::regex kName(R"re(^(\d{3})_.*\.txt$)re");
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    std::smatch m;
    if (std::regex_match(name, m, kName)) docs[m[1]] = read_lines(entry.path());
  }
  return docs;
}

/// A stretch of prose a citation may span: consecutive comment lines of a header, a Markdown
/// paragraph, or a Markdown table row, joined with one space.
struct Block {
  std::string file;
  int line;  // where it starts in its file
  std::string text;
  std::vector<std::size_t> line_starts;  // where each of its file's lines starts in `text`

  void append(const std::string& piece) {
    if (!text.empty()) text += ' ';
    line_starts.push_back(text.size());
    text += piece;
  }
  /// "file:line" of the character at `at` of `text`.
  std::string where(std::size_t at) const {
    const auto later = std::upper_bound(line_starts.begin(), line_starts.end(), at);
    return file + ":" + std::to_string(line + (later - line_starts.begin()) - 1);
  }
};

/// The comments of a C++ header, consecutive `//` lines joined with one space.
std::vector<Block> comment_blocks(const std::string& file, const std::vector<std::string>& lines) {
  std::vector<Block> blocks;
  bool open = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto slashes = lines[i].find("//");
    if (slashes == std::string::npos) {
      open = false;
      continue;
    }
    std::string text = lines[i].substr(slashes);
    text.erase(0, text.find_first_not_of("/<! "));
    if (!open) blocks.push_back({file, static_cast<int>(i + 1), "", {}});
    blocks.back().append(text);
    open = true;
  }
  return blocks;
}

/// The prose of a Markdown file: paragraphs joined with one space, each table row alone,
/// fenced code left out.
std::vector<Block> markdown_blocks(const std::string& file, const std::vector<std::string>& lines) {
  std::vector<Block> blocks;
  bool open = false;
  bool fenced = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const auto first = line.find_first_not_of(' ');
    const bool blank = first == std::string::npos;
    if (!blank && line.compare(first, 3, "```") == 0) {
      fenced = !fenced;
      open = false;
      continue;
    }
    if (fenced || blank) {
      open = false;
      continue;
    }
    const bool row = line[first] == '|';
    if (!open || row) blocks.push_back({file, static_cast<int>(i + 1), "", {}});
    blocks.back().append(line.substr(first));
    open = !row;
  }
  return blocks;
}

/// Every block of prose under primitives/, in a fixed order.
std::vector<Block> primitives_prose() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(kSourceDir / "primitives")) {
    const auto ext = entry.path().extension();
    if (ext == ".hpp" || ext == ".md") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<Block> blocks;
  for (const auto& path : files) {
    const std::string name = fs::relative(path, kSourceDir).string();
    const auto lines = read_lines(path);
    const auto more =
        path.extension() == ".md" ? markdown_blocks(name, lines) : comment_blocks(name, lines);
    blocks.insert(blocks.end(), more.begin(), more.end());
  }
  return blocks;
}

struct Range {
  int first;
  int last;
};

struct Citation {
  std::string document;
  std::vector<Range> ranges;
  std::vector<std::string> tokens;
  std::string text;
  std::size_t begin;  // where it stands in its block's text
  std::size_t end;
};

// `document NNN line(s) RANGES` + (" (" | ", " | ": " | " | ") + backquoted tokens.
const std::regex kCitation(
    R"re(document (\d{3}) lines? (\d+(?:-\d+)?(?:(?:, and |, | and )\d+(?:-\d+)?)*))re"
    R"re((?: \(|, |: | \| )(`[^`]+`(?:(?:, | / | or | and )`[^`]+`)*))re",
    std::regex::icase);

std::vector<Citation> parse_citations(const std::string& text) {
  static const std::regex kRange(R"re((\d+)(?:-(\d+))?)re");
  static const std::regex kToken(R"re(`([^`]+)`)re");
  std::vector<Citation> citations;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kCitation);
       it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    Citation c{m[1],
               {},
               {},
               m[0],
               static_cast<std::size_t>(m.position(0)),
               static_cast<std::size_t>(m.position(0) + m.length(0))};
    const std::string ranges = m[2];
    for (auto r = std::sregex_iterator(ranges.begin(), ranges.end(), kRange);
         r != std::sregex_iterator(); ++r) {
      const int first = std::stoi((*r)[1]);
      c.ranges.push_back({first, (*r)[2].matched ? std::stoi((*r)[2]) : first});
    }
    const std::string tokens = m[3];
    for (auto t = std::sregex_iterator(tokens.begin(), tokens.end(), kToken);
         t != std::sregex_iterator(); ++t) {
      c.tokens.push_back((*t)[1]);
    }
    citations.push_back(c);
  }
  return citations;
}

/// What is wrong with `c` against the documents; empty when it is true.
std::vector<std::string> check_citation(const Citation& c, const Documents& docs) {
  std::vector<std::string> problems;
  const auto doc = docs.find(c.document);
  if (doc == docs.end()) {
    problems.push_back("no document " + c.document + " in " + kSeedsDir.string());
    return problems;
  }
  const auto& lines = doc->second;
  for (const Range& r : c.ranges) {
    const std::string range =
        r.first == r.last ? "line " + std::to_string(r.first)
                          : "lines " + std::to_string(r.first) + "-" + std::to_string(r.last);
    if (r.first < 1 || r.last < r.first || r.last > static_cast<int>(lines.size())) {
      problems.push_back(range + " is not in document " + c.document + " (" +
                         std::to_string(lines.size()) + " lines)");
      continue;
    }
    bool found = false;
    for (int n = r.first; n <= r.last && !found; ++n) {
      for (const auto& token : c.tokens)
        found = found || lines[n - 1].find(token) != std::string::npos;
    }
    if (found) continue;
    std::string held;
    for (int n = r.first; n <= r.last; ++n) {
      held += "\n    " + std::to_string(n) + ": " + lines[n - 1];
    }
    problems.push_back(range + " of document " + c.document +
                       " holds none of the named tokens; it reads:" + held);
  }
  return problems;
}

/// A line number no citation covers: where it stands in its block's text, and what it is.
struct Uncheckable {
  std::size_t at;
  std::string what;
};

/// Line numbers in `text` that no citation covers, quoted with a little context.
std::vector<Uncheckable> uncheckable_numbers(const std::string& text,
                                             const std::vector<Citation>& citations) {
  struct Form {
    std::regex pattern;
    std::size_t group;  // the match starts where this group starts
    const char* what;
  };
  static const std::vector<Form> kForms = {
      {std::regex(R"re(\blines? \d)re", std::regex::icase), 0,
       "a line number outside the citation form"},
      {std::regex(R"re((^|\s)(\(\d{2,}(?:-\d+)?(?:, \d+(?:-\d+)?)*\)))re"), 2,
       "a bare line number in parentheses"},
      {std::regex(R"re(\b00\d, \d)re"), 0, "a document and a line without the citation form"},
  };
  std::vector<Uncheckable> found;
  for (const Form& form : kForms) {
    for (auto it = std::sregex_iterator(text.begin(), text.end(), form.pattern);
         it != std::sregex_iterator(); ++it) {
      const auto at = static_cast<std::size_t>(it->position(form.group));
      const bool covered = std::any_of(citations.begin(), citations.end(),
                                       [&](const auto& c) { return c.begin <= at && at < c.end; });
      if (covered) continue;
      const std::size_t from = at < 40 ? 0 : at - 40;
      found.push_back({at, std::string(form.what) + ": \"..." + text.substr(from, 90) + "...\""});
    }
  }
  return found;
}

// ---- the checker itself, on the real document 003 -------------------------------------------

TEST(PrimitivesCitations, TheCheckerAcceptsATrueCitationAndReportsEachKindOfFalseOne) {
  const Documents docs = read_documents(kSeedsDir);
  ASSERT_TRUE(docs.count("003")) << "document 003 not found in " << kSeedsDir;
  const auto problems_of = [&](const std::string& text) {
    std::vector<std::string> problems;
    const auto citations = parse_citations(text);
    for (const auto& c : citations) {
      const auto more = check_citation(c, docs);
      problems.insert(problems.end(), more.begin(), more.end());
    }
    for (const auto& u : uncheckable_numbers(text, citations)) problems.push_back(u.what);
    return problems;
  };
  EXPECT_TRUE(problems_of("the unlink (document 003 lines 183-184, `node.prev->next`)").empty());
  EXPECT_TRUE(problems_of("document 003 lines 11-15 and 231 (`node_base`, `class "
                          "awaitable_sync_object`)")
                  .empty());
  // A range shifted off its token, a range past the end, a document that does not exist.
  EXPECT_EQ(problems_of("document 003 lines 185-186 (`node.prev->next`)").size(), 1u);
  EXPECT_EQ(problems_of("document 003 lines 330-340 (`std::terminate`)").size(), 1u);
  EXPECT_EQ(problems_of("document 009 line 1 (`x`)").size(), 1u);
  // The second range holds none of the tokens.
  EXPECT_EQ(problems_of("document 003 lines 183 and 220 (`node.prev->next`)").size(), 1u);
  // Numbers the checker cannot check: no token, a bare range, the old table form.
  EXPECT_EQ(problems_of("as published (document 003 lines 183-184)").size(), 1u);
  EXPECT_EQ(problems_of("promises no fairness (238)").size(), 1u);
  EXPECT_EQ(problems_of("| 003, 183-184 | `node.prev->next` |").size(), 1u);
}

// ---- the citations in primitives/ -------------------------------------------------------------

TEST(PrimitivesCitations, EveryCitedRangeExistsAndHoldsATokenNamedWithIt) {
  const Documents docs = read_documents(kSeedsDir);
  ASSERT_EQ(docs.size(), 5u) << "the five source documents are expected in " << kSeedsDir;
  int checked = 0;
  for (const Block& block : primitives_prose()) {
    for (const Citation& c : parse_citations(block.text)) {
      ++checked;
      for (const auto& problem : check_citation(c, docs)) {
        ADD_FAILURE() << block.where(c.begin) << ": \"" << c.text << "\": " << problem;
      }
    }
  }
  // Guards the parser: were the form to change under it, it would find nothing to check.
  EXPECT_GT(checked, 50);
}

TEST(PrimitivesCitations, EveryLineNumberIsWrittenInTheCheckedForm) {
  for (const Block& block : primitives_prose()) {
    for (const auto& u : uncheckable_numbers(block.text, parse_citations(block.text))) {
      ADD_FAILURE() << block.where(u.at) << ": " << u.what;
    }
  }
}

TEST(PrimitivesCitations, EveryPortOfADocumentCitesIt) {
  const std::map<std::string, std::string> ports = {
      {"primitives/async_unfair_mutex.hpp", "000"},
      {"primitives/shared_mutex_part8.hpp", "001"},
      {"primitives/work_queue.hpp", "002"},
      {"primitives/awaitable_library.hpp", "003"},
      {"primitives/cooperative_semaphore.hpp", "004"},
  };
  std::map<std::string, int> cited;
  for (const Block& block : primitives_prose()) {
    const auto port = ports.find(block.file);
    if (port == ports.end()) continue;
    for (const Citation& c : parse_citations(block.text))
      cited[block.file] += c.document == port->second;
  }
  for (const auto& [file, document] : ports) {
    EXPECT_GT(cited[file], 0) << file << " cites no line of document " << document;
  }
}

}  // namespace
}  // namespace primitives_citations_test
}  // namespace syncstress
