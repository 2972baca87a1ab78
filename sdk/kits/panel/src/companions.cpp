#include <stand/kits/panel/companions.hpp>

#include <stand/cpp/error.hpp>
#include <stand/cpp/executable.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>

namespace stand_panel_kit {

namespace fs = std::filesystem;
using stand::cpp::Error;

namespace {

// What a PostgreSQL declaration runs.
constexpr const char* kPostgresqlPrograms[] = {"initdb", "postgres", "pg_isready", "psql"};

std::string search_path() {
    const char* path = std::getenv("PATH");
    return path ? path : stand::cpp::kDefaultSearchPath;
}

bool on_path(const std::string& name) { return stand::cpp::find_on_path(name, search_path()).has_value(); }

// `given`, else the first of `names` on PATH (its bare name), else the first
// of `fallbacks` that is executable, else names[0] (install() names it).
std::string program(const std::string& given, const std::vector<std::string>& names,
                    const std::vector<std::string>& fallbacks = {}) {
    if (!given.empty()) return given;
    for (const auto& n : names)
        if (on_path(n)) return n;
    for (const auto& f : fallbacks)
        if (stand::cpp::is_executable_file(f)) return f;
    return names.front();
}

[[noreturn]] void invalid(const std::string& server, const std::string& what) {
    throw Error(STAND_E_INVALID_ARGUMENT, "the kit's " + server + " declaration: " + what);
}

void check_common(const std::string& server, const std::string& name, const std::string& database) {
    static const std::regex kName("[a-z][a-z0-9_-]*");
    static const std::regex kIdentifier("[A-Za-z_][A-Za-z0-9_]*");
    if (!std::regex_match(name, kName))
        invalid(server, "name \"" + name + "\" is not a process name (a-z 0-9 _ -, starting with a letter)");
    if (!database.empty() && !std::regex_match(database, kIdentifier))
        invalid(server, "database \"" + database + "\" is not an identifier (A-Z a-z 0-9 _, not starting with a digit)");
}

struct Address {
    std::string host, port;
};

// "HOST:PORT" (the host numeric, IPv6 in brackets; either part may be a ${variable}).
Address tcp_address(const std::string& server, const std::string& tcp) {
    const auto colon = tcp.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == tcp.size())
        invalid(server, "tcp \"" + tcp + "\" is not HOST:PORT");
    return {tcp.substr(0, colon), tcp.substr(colon + 1)};
}

std::string default_user(const std::optional<std::string>& given, const char* system_user) {
    if (given) return *given;
    return ::geteuid() == 0 ? system_user : "";
}

std::vector<std::string> joined(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// A companion's server that answers on its socket or, given one, its TCP
// address, and outlives a panel restart.
PanelProcess socket_or_tcp_server(const std::string& name, std::vector<std::string> argv, const std::string& socket,
                                  const std::string& tcp) {
    auto server = service(name, std::move(argv));
    if (tcp.empty())
        server.ready.unix_socket = socket;
    else
        server.ready.tcp = tcp;
    server.on_restart = OnRestart::persists;
    return server;
}

}  // namespace

std::string postgresql_bin_dir() {
    auto complete = [](const fs::path& dir) {
        return std::all_of(std::begin(kPostgresqlPrograms), std::end(kPostgresqlPrograms),
                           [&](const char* p) { return stand::cpp::is_executable_file(dir / p); });
    };
    std::vector<fs::path> candidates;
    std::error_code ec;
    const auto initdb = stand::cpp::find_on_path("initdb", search_path());
    if (initdb) {
        candidates.push_back(initdb->parent_path());
        if (auto real = fs::canonical(*initdb, ec); !ec) candidates.push_back(real.parent_path());  // a link to Debian's
    }
    std::vector<std::pair<int, fs::path>> debian;
    for (const auto& entry : fs::directory_iterator("/usr/lib/postgresql", ec)) {
        const std::string major = entry.path().filename().string();
        if (major.empty() || major.size() > 4 ||
            !std::all_of(major.begin(), major.end(), [](char c) { return c >= '0' && c <= '9'; }))
            continue;
        debian.emplace_back(std::stoi(major), entry.path() / "bin");
    }
    std::sort(debian.rbegin(), debian.rend());  // the newest first
    for (const auto& d : debian) candidates.push_back(d.second);
    for (const auto& c : candidates)
        if (complete(c)) return c.string();
    return initdb ? initdb->parent_path().string() : "";
}

Companion add_postgresql(std::vector<PanelProcess>& processes, const PostgresqlOptions& o) {
    check_common("PostgreSQL", o.name, o.database);
    const std::string bin = o.bin_dir.empty() ? postgresql_bin_dir() : o.bin_dir;
    auto tool = [&](const char* name) { return bin.empty() ? std::string(name) : (fs::path(bin) / name).string(); };
    Companion c;
    c.name = o.name;
    c.folder = "${data_dir}/" + o.name;
    c.user = "postgres";
    c.database = o.database;
    std::string listen_addresses, socket_dir, connect_to;
    if (o.tcp.empty()) {
        c.port = "5432";
        socket_dir = connect_to = "${socket_dir}/" + o.name;
        c.socket = socket_dir + "/.s.PGSQL." + c.port;
    } else {
        const auto a = tcp_address("PostgreSQL", o.tcp);
        c.host = listen_addresses = connect_to = a.host;
        c.port = a.port;
    }
    const std::string db = o.database.empty() ? "postgres" : o.database;
    c.url = o.tcp.empty() ? "postgresql://postgres@/" + db + "?host=" + socket_dir + "&port=" + c.port
                          : "postgresql://postgres@" + c.host + ":" + c.port + "/" + db;
    auto psql = [&](const std::string& database) {
        return std::vector<std::string>{tool("psql"), "-h", connect_to, "-p", c.port, "-U", "postgres",
                                        "-d", database, "-q", "-v", "ON_ERROR_STOP=1"};
    };
    c.client = psql(db);

    auto initdb = step(o.name + "-initdb",
                       {tool("initdb"), "-D", c.folder, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"},
                       RunWhen::first_start);
    std::vector<std::string> argv{tool("postgres"), "-D", c.folder, "-p", c.port, "-k", socket_dir,
                                  "-c", "listen_addresses=" + listen_addresses};
    for (const auto& s : o.settings) argv.insert(argv.end(), {"-c", s});
    auto server = service(o.name, argv);
    server.ready.command = {tool("pg_isready"), "-q", "-h", connect_to, "-p", c.port};
    server.on_restart = OnRestart::persists;
    server.stop_signal = SIGINT;  // "fast" shutdown: what `docker stop` does to postgres's image
    const std::string user = default_user(o.user, "postgres");
    const std::string hint = o.install_hint.empty()
                                 ? "PostgreSQL's server programs (Debian: apt-get install postgresql; they are in "
                                   "/usr/lib/postgresql/<major>/bin, off PATH)"
                                 : o.install_hint;
    for (auto* p : {&initdb, &server}) {
        p->user = user;
        p->data = {o.name};
        p->working_dir = c.folder;  // its user may not enter stand's working directory
        p->install_hint = hint;
    }
    processes.push_back(initdb);
    processes.push_back(server);
    if (!o.database.empty()) {
        processes.push_back(step(o.name + "-createdb",
                                 joined(psql("postgres"), {"-c", "CREATE DATABASE \"" + o.database + "\""}),
                                 RunWhen::first_start));
        processes.back().install_hint = hint;
    }
    return c;
}

Companion add_mariadb(std::vector<PanelProcess>& processes, const MariadbOptions& o) {
    check_common("MariaDB", o.name, o.database);
    Companion c;
    c.name = o.name;
    c.folder = "${data_dir}/" + o.name;
    c.socket = "${socket_dir}/" + o.name + "/mariadb.sock";
    c.user = "root";
    c.database = o.database;
    const std::string user = default_user(o.user, "mysql");
    // mariadbd and mariadb-install-db refuse root unless told to be root.
    const bool as_root = ::geteuid() == 0 && (user.empty() || user == "root");
    std::vector<std::string> argv{program(o.server, {"mariadbd", "mysqld"}, {"/usr/sbin/mariadbd", "/usr/sbin/mysqld"}),
                                  "--no-defaults", "--datadir=" + c.folder, "--socket=" + c.socket,
                                  "--pid-file=" + c.folder + "/mariadb.pid"};
    std::vector<std::string> client{program(o.client, {"mariadb", "mysql"}), "--no-defaults", "-u", "root"};
    if (o.tcp.empty()) {
        argv.push_back("--skip-networking");
        client.push_back("--socket=" + c.socket);
        c.url = "mysql://root@localhost/" + o.database + "?unix_socket=" + c.socket;
    } else {
        const auto a = tcp_address("MariaDB", o.tcp);
        c.host = a.host;
        c.port = a.port;
        argv.insert(argv.end(), {"--bind-address=" + c.host, "--port=" + c.port});
        client.insert(client.end(), {"--protocol=TCP", "--host=" + c.host, "--port=" + c.port});
        c.url = "mysql://root@" + c.host + ":" + c.port + "/" + o.database;
    }
    if (as_root) argv.push_back("--user=root");
    argv.insert(argv.end(), o.args.begin(), o.args.end());
    std::vector<std::string> install{program(o.install_db, {"mariadb-install-db", "mysql_install_db"}), "--no-defaults",
                                     "--datadir=" + c.folder, "--auth-root-authentication-method=normal",
                                     "--skip-test-db"};
    if (as_root) install.push_back("--user=root");
    c.client = client;
    if (!o.database.empty()) c.client.push_back("--database=" + o.database);

    auto install_db = step(o.name + "-install-db", install, RunWhen::first_start);
    auto server = socket_or_tcp_server(o.name, argv, c.socket, o.tcp);
    server.stop_timeout_ms = 30000;  // InnoDB's shutdown writes its buffer pool out
    const std::string hint = o.install_hint.empty() ? "MariaDB's server (Debian: apt-get install mariadb-server)"
                                                    : o.install_hint;
    for (auto* p : {&install_db, &server}) {
        p->user = user;
        p->data = {o.name};
        p->working_dir = c.folder;
        p->install_hint = hint;
    }
    processes.push_back(install_db);
    processes.push_back(server);
    if (!o.database.empty()) {
        processes.push_back(step(o.name + "-createdb",
                                 joined(client, {"-e", "CREATE DATABASE IF NOT EXISTS `" + o.database + "`"}),
                                 RunWhen::first_start));
        processes.back().install_hint = hint;
    }
    return c;
}

Companion add_redis(std::vector<PanelProcess>& processes, const RedisOptions& o) {
    check_common("Redis", o.name, "");
    Companion c;
    c.name = o.name;
    c.folder = "${data_dir}/" + o.name;
    const std::string server_program = program(o.server, {"redis-server", "valkey-server"});
    const bool valkey = fs::path(server_program).filename().string().rfind("valkey", 0) == 0;
    std::vector<std::string> argv{server_program};
    c.client = {program(o.client, valkey ? std::vector<std::string>{"valkey-cli", "redis-cli"}
                                         : std::vector<std::string>{"redis-cli", "valkey-cli"})};
    if (o.tcp.empty()) {
        c.socket = "${socket_dir}/" + o.name + "/redis.sock";
        argv.insert(argv.end(), {"--port", "0", "--unixsocket", c.socket});
        c.client.insert(c.client.end(), {"-s", c.socket});
        c.url = "unix://" + c.socket;
    } else {
        const auto a = tcp_address("Redis", o.tcp);
        c.host = a.host;
        c.port = a.port;
        argv.insert(argv.end(), {"--port", c.port, "--bind", c.host});
        c.client.insert(c.client.end(), {"-h", c.host, "-p", c.port});
        c.url = "redis://" + c.host + ":" + c.port;
    }
    argv.insert(argv.end(), {"--save", "", "--appendonly", "no", "--maxmemory-policy", "noeviction", "--loglevel",
                             "warning", "--dir", c.folder});
    argv.insert(argv.end(), o.args.begin(), o.args.end());
    auto server = socket_or_tcp_server(o.name, argv, c.socket, o.tcp);
    server.user = o.user;
    server.data = {o.name};
    server.install_hint = o.install_hint.empty() ? "Redis's server (Debian: apt-get install redis-server; or Valkey's)"
                                                 : o.install_hint;
    processes.push_back(server);
    return c;
}

}  // namespace stand_panel_kit
