#include <stand/kits/panel/compose_file.hpp>

#include <boost/json.hpp>

namespace stand_panel_kit {

namespace {

// A JSON string is a YAML double-quoted scalar.
std::string quoted(const std::string& s) { return boost::json::serialize(boost::json::value(s)); }

std::string flow(const std::vector<std::string>& items) {
    std::string out = "[";
    for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + quoted(items[i]);
    return out + "]";
}

void scalar(std::string& out, const char* key, const std::string& value) {
    if (!value.empty()) out += std::string("    ") + key + ": " + quoted(value) + "\n";
}

// A sequence of words (an argv, a healthcheck test) on one line.
void list(std::string& out, const char* key, const std::vector<std::string>& items) {
    if (!items.empty()) out += std::string("    ") + key + ": " + flow(items) + "\n";
}

// A sequence of entries (ports, volumes), one a line.
void block(std::string& out, const char* key, const std::vector<std::string>& items) {
    if (items.empty()) return;
    out += std::string("    ") + key + ":\n";
    for (const auto& item : items) out += "      - " + quoted(item) + "\n";
}

void pairs(std::string& out, const char* key, const std::vector<std::pair<std::string, std::string>>& items,
           const char* inner) {
    if (items.empty()) return;
    out += std::string("    ") + key + ":\n";
    for (const auto& [k, v] : items)
        out += "      " + quoted(k) + ": " + (inner ? "{" + std::string(inner) + ": " + quoted(v) + "}" : quoted(v)) + "\n";
}

void healthcheck(std::string& out, const ComposeHealthcheck& h) {
    out += "    healthcheck:\n      test: " + flow(h.test) + "\n";
    for (const auto& [k, v] : {std::pair{"interval", &h.interval}, std::pair{"timeout", &h.timeout},
                               std::pair{"start_period", &h.start_period}})
        if (!v->empty()) out += std::string("      ") + k + ": " + *v + "\n";
    if (h.retries > 0) out += "      retries: " + std::to_string(h.retries) + "\n";
}

void service(std::string& out, const ComposeService& s) {
    out += "  " + s.name + ":\n";
    scalar(out, "image", s.image);
    scalar(out, "container_name", s.container_name);
    scalar(out, "hostname", s.hostname);
    if (s.in_box) out += "    cgroup_parent: ${STAND_CGROUP_PARENT}\n";
    scalar(out, "network_mode", s.network_mode);
    if (s.tty) out += "    tty: true\n";
    block(out, "cap_add", s.cap_add);
    scalar(out, "shm_size", s.shm_size);
    if (s.nofile)
        out += "    ulimits: {nofile: {soft: " + std::to_string(*s.nofile) + ", hard: " + std::to_string(*s.nofile) + "}}\n";
    scalar(out, "env_file", s.env_file);
    pairs(out, "environment", s.environment, nullptr);
    block(out, "ports", s.ports);
    block(out, "volumes", s.volumes);
    list(out, "entrypoint", s.entrypoint);
    list(out, "command", s.command);
    if (s.healthcheck) healthcheck(out, *s.healthcheck);
    pairs(out, "depends_on", s.depends_on, "condition");
    block(out, "profiles", s.profiles);
}

}  // namespace

ComposeService compose_service(std::string name, std::string image, std::string container_name) {
    ComposeService s;
    s.name = std::move(name);
    s.image = std::move(image);
    s.container_name = std::move(container_name);
    return s;
}

std::string render_compose(const ComposeFile& file) {
    std::string out = "services:\n";
    for (const auto& s : file.services) service(out, s);
    if (!file.volumes.empty()) {
        out += "volumes:\n";
        for (const auto& v : file.volumes) out += "  " + v + ": {}\n";
    }
    return out;
}

}  // namespace stand_panel_kit
