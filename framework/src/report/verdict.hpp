// The first thing summary.md and report.html say: whether the numbers can
// be quoted. Clean when no detector fired and every repetition finished;
// otherwise which findings touched which plugins and repetitions (or the
// whole run), how many repetitions did not finish, whether the run stopped
// early, in one or two lines. The thresholds' tally follows it.
#pragma once

#include <boost/json.hpp>

#include <string>
#include <vector>

namespace stand::report {

struct Verdict {
    bool clean = true;
    std::size_t reps = 0, reps_ok = 0;
    std::vector<std::string> touched;  // "machine-busy: nginx reps 1, 3; caddy rep 2"
    std::vector<std::string> unfinished;  // "nginx rep 3 failed"
    std::string stopped;               // why the run stopped early, "" when it did not
};

// From results.json (its reps, findings and run).
Verdict run_verdict(const boost::json::object& results);

// "**Verdict: clean.** ..." (Markdown) and the same as an HTML paragraph.
std::string verdict_markdown(const Verdict& v);
std::string verdict_html(const Verdict& v);

}  // namespace stand::report
