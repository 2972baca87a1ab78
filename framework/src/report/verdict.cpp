#include "report/verdict.hpp"

#include "report/html_text.hpp"
#include "report/markdown_text.hpp"
#include "rundir/run_files.hpp"

#include <map>
#include <set>

namespace stand::report {
namespace {

namespace json = boost::json;

std::string str(const json::object& o, std::string_view key) {
    const auto* v = rundir::field(o, key);
    return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

// plugin -> its repetitions, for one finding id; "" keys hold scopes that name no repetition.
using Touches = std::map<std::string, std::set<long long>>;

// "nginx reps 1, 3; caddy rep 2; the run (after configure step c)"
std::string touches_text(const Touches& touches, const std::set<std::string>& other_scopes) {
    std::string out;
    for (const auto& [plugin, reps] : touches) {
        std::string list;
        for (auto r : reps) list += (list.empty() ? "" : ", ") + std::to_string(r);
        out += (out.empty() ? "" : "; ") + plugin + (reps.size() == 1 ? " rep " : " reps ") + list;
    }
    for (const auto& s : other_scopes) out += (out.empty() ? "" : "; ") + std::string("the run") + (s.empty() ? "" : " (" + s + ")");
    return out;
}

// Which repetition a rep finding's scope ("<plugin> rep <n>[, step <s>]") names.
bool rep_of_scope(const std::string& scope, const std::set<std::string>& plugins, std::string& plugin, long long& rep) {
    const auto at = scope.find(" rep ");
    if (at == std::string::npos || !plugins.count(scope.substr(0, at))) return false;
    plugin = scope.substr(0, at);
    try {
        rep = std::stoll(scope.substr(at + 5));
    } catch (const std::exception&) {
        return false;
    }
    return true;
}

}  // namespace

Verdict run_verdict(const json::object& results) {
    Verdict v;
    std::set<std::string> plugins;
    const auto* reps = rundir::field(results, rundir::results_key::kReps);
    for (const auto& r : reps ? reps->as_array() : json::array{}) {
        const auto& rep = r.as_object();
        plugins.insert(str(rep, rundir::rep_key::kPlugin));
        ++v.reps;
        const std::string status = str(rep, rundir::rep_key::kStatus);
        if (status == rundir::rep_status::kOk) ++v.reps_ok;
        else v.unfinished.push_back(str(rep, rundir::rep_key::kKey) + " " + status);
    }
    std::map<std::string, std::pair<Touches, std::set<std::string>>> by_id;
    const auto* findings = rundir::field(results, rundir::results_key::kFindings);
    for (const auto& f : findings ? findings->as_array() : json::array{}) {
        const auto& o = f.as_object();
        std::string plugin;
        long long rep = 0;
        auto& [touches, scopes] = by_id[str(o, "id")];
        if (rep_of_scope(str(o, "scope"), plugins, plugin, rep)) touches[plugin].insert(rep);
        else scopes.insert(str(o, "scope"));
    }
    for (const auto& [id, t] : by_id) v.touched.push_back(id + ": " + touches_text(t.first, t.second));
    if (const auto* run = rundir::field(results, rundir::results_key::kRun); run && run->is_object())
        v.stopped = str(run->as_object(), "threshold_stop");
    v.clean = v.touched.empty() && v.unfinished.empty() && v.stopped.empty();
    return v;
}

namespace {

// The sentences after the verdict's name, as plain text.
std::vector<std::string> verdict_sentences(const Verdict& v) {
    std::vector<std::string> out;
    if (v.clean) {
        out.push_back("No detector fired and all " + std::to_string(v.reps) +
                      " repetitions finished: these numbers can be quoted, with the standing caveat at the end.");
        return out;
    }
    if (!v.touched.empty()) {
        std::string s;
        for (const auto& t : v.touched) s += (s.empty() ? "" : ". ") + t;
        out.push_back(s + ". Cells fed by a repetition with a finding are marked \u26a0; the findings are under "
                          "\"What these numbers do not tell you\".");
    }
    if (!v.unfinished.empty()) {
        std::string s;
        for (const auto& u : v.unfinished) s += (s.empty() ? "" : ", ") + u;
        out.push_back(std::to_string(v.unfinished.size()) + " of " + std::to_string(v.reps) +
                      " repetitions did not finish (" + s + "): the cells hold the others.");
    }
    if (!v.stopped.empty()) out.push_back("The run stopped early: " + v.stopped + ".");
    return out;
}

std::string verdict_name(const Verdict& v) { return v.clean ? "Verdict: clean." : "Verdict: quote only with its findings."; }

}  // namespace

std::string verdict_markdown(const Verdict& v) {
    std::string md = "**" + verdict_name(v) + "**";
    for (const auto& s : verdict_sentences(v)) md += " " + cell_text(s);
    return md + "\n\n";
}

std::string verdict_html(const Verdict& v) {
    std::string html = "<p class=\"verdict " + std::string(v.clean ? "clean" : "unclean") + "\"><strong>" +
                       html_escape(verdict_name(v)) + "</strong>";
    for (const auto& s : verdict_sentences(v)) html += " " + html_escape(s);
    return html + "</p>";
}

}  // namespace stand::report
