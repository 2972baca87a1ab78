// The panel kit's ready-made declarations of PostgreSQL, MariaDB and Redis
// (sdk/kits/panel companions.hpp): the processes, argv, users, readiness and
// data folders they declare, the endpoints they return, and Remnawave's
// options (TCP on loopback) giving the command lines its adapter declared by
// hand before. No server runs here: the ctest fixtures.compat.databases
// starts the three real ones (tests/fixtures/panel-databases).
#include <stand/cpp/error.hpp>
#include <stand/kits/panel/companions.hpp>

#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

using stand_panel_kit::OnRestart;
using stand_panel_kit::PanelProcess;
using stand_panel_kit::RunWhen;
using Argv = std::vector<std::string>;

std::vector<std::string> names(const std::vector<PanelProcess>& ps) {
    std::vector<std::string> out;
    for (const auto& p : ps) out.push_back(p.name);
    return out;
}

// PATH set to `value` for the scope.
class PathFor {
public:
    explicit PathFor(const std::string& value) {
        if (const char* p = std::getenv("PATH")) old_ = p;
        ::setenv("PATH", value.c_str(), 1);
    }
    ~PathFor() { ::setenv("PATH", old_.c_str(), 1); }
    PathFor(const PathFor&) = delete;
    PathFor& operator=(const PathFor&) = delete;

private:
    std::string old_;
};

void fake_program(const std::filesystem::path& file) {
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << "#!/bin/sh\n";
    ::chmod(file.c_str(), 0755);
}

std::string invalid_argument(const std::function<void()>& f) {
    try {
        f();
    } catch (const stand::cpp::Error& e) {
        CHECK(e.code() == STAND_E_INVALID_ARGUMENT);
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("panel companions: PostgreSQL on a unix socket in its folder of the data dir, its database made once") {
    std::vector<PanelProcess> ps;
    const auto db = stand_panel_kit::add_postgresql(ps, {.database = "panel", .bin_dir = "/pg/bin", .user = "postgres"});
    REQUIRE(names(ps) == Argv{"postgres-initdb", "postgres", "postgres-createdb"});
    const auto& init = ps[0];
    CHECK(init.one_shot);
    CHECK(init.when == RunWhen::first_start);
    CHECK(init.argv == Argv{"/pg/bin/initdb", "-D", "${data_dir}/postgres", "-U", "postgres", "--auth=trust", "-E",
                            "UTF8", "--locale=C.UTF-8"});
    const auto& server = ps[1];
    CHECK_FALSE(server.one_shot);
    CHECK(server.argv == Argv{"/pg/bin/postgres", "-D", "${data_dir}/postgres", "-p", "5432", "-k",
                              "${socket_dir}/postgres", "-c", "listen_addresses="});
    CHECK(server.ready.command == Argv{"/pg/bin/pg_isready", "-q", "-h", "${socket_dir}/postgres", "-p", "5432"});
    CHECK(server.ready.tcp.empty());
    CHECK(server.on_restart == OnRestart::persists);
    CHECK(server.stop_signal == SIGINT);
    for (const auto* p : {&init, &server}) {
        CHECK(p->user == "postgres");
        CHECK(p->data == Argv{"postgres"});
        CHECK(p->working_dir == "${data_dir}/postgres");
        CHECK(p->install_hint.find("apt-get install postgresql") != std::string::npos);
    }
    const auto& create = ps[2];
    CHECK(create.when == RunWhen::first_start);
    CHECK(create.user.empty());  // stand's: root reaches the socket, a non-root stand runs the server itself
    CHECK(create.argv == Argv{"/pg/bin/psql", "-h", "${socket_dir}/postgres", "-p", "5432", "-U", "postgres", "-d",
                              "postgres", "-q", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE \"panel\""});
    CHECK(db.name == "postgres");
    CHECK(db.folder == "${data_dir}/postgres");
    CHECK(db.socket == "${socket_dir}/postgres/.s.PGSQL.5432");
    CHECK(db.host.empty());
    CHECK(db.port == "5432");
    CHECK(db.user == "postgres");
    CHECK(db.database == "panel");
    CHECK(db.url == "postgresql://postgres@/panel?host=${socket_dir}/postgres&port=5432");
    CHECK(db.client == Argv{"/pg/bin/psql", "-h", "${socket_dir}/postgres", "-p", "5432", "-U", "postgres", "-d", "panel",
                            "-q", "-v", "ON_ERROR_STOP=1"});
}

TEST_CASE("panel companions: PostgreSQL with Remnawave's options declares what its adapter declared by hand") {
    // plugins/remnawave before the kit had these declarations (2026-12-06):
    // the same argv, users, readiness and data, step names aside.
    std::vector<PanelProcess> ps;
    const auto db = stand_panel_kit::add_postgresql(
        ps, {.database = "remnawave", .tcp = "127.0.0.1:${db_port}", .bin_dir = "/usr/lib/postgresql/15/bin",
             .user = "postgres", .settings = {"timezone=UTC"}});
    const std::string bin = "/usr/lib/postgresql/15/bin";
    REQUIRE(names(ps) == Argv{"postgres-initdb", "postgres", "postgres-createdb"});
    CHECK(ps[0].argv == Argv{bin + "/initdb", "-D", "${data_dir}/postgres", "-U", "postgres", "--auth=trust", "-E",
                             "UTF8", "--locale=C.UTF-8"});
    CHECK(ps[1].argv == Argv{bin + "/postgres", "-D", "${data_dir}/postgres", "-p", "${db_port}", "-k", "", "-c",
                             "listen_addresses=127.0.0.1", "-c", "timezone=UTC"});
    CHECK(ps[1].ready.command == Argv{bin + "/pg_isready", "-q", "-h", "127.0.0.1", "-p", "${db_port}"});
    CHECK(ps[2].argv == Argv{bin + "/psql", "-h", "127.0.0.1", "-p", "${db_port}", "-U", "postgres", "-d", "postgres",
                             "-q", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE \"remnawave\""});
    for (int i : {0, 1}) {
        CHECK(ps[i].user == "postgres");
        CHECK(ps[i].data == Argv{"postgres"});
        CHECK(ps[i].working_dir == "${data_dir}/postgres");
    }
    CHECK(ps[1].on_restart == OnRestart::persists);
    CHECK(ps[1].stop_signal == SIGINT);
    CHECK(db.socket.empty());
    CHECK(db.host == "127.0.0.1");
    CHECK(db.port == "${db_port}");
    CHECK(db.url == "postgresql://postgres@127.0.0.1:${db_port}/remnawave");
    CHECK(db.client == Argv{bin + "/psql", "-h", "127.0.0.1", "-p", "${db_port}", "-U", "postgres", "-d", "remnawave",
                            "-q", "-v", "ON_ERROR_STOP=1"});
}

TEST_CASE("panel companions: PostgreSQL without a database, its user by default, another name") {
    std::vector<PanelProcess> ps{stand_panel_kit::service("before", {"true"})};
    const auto db = stand_panel_kit::add_postgresql(ps, {.bin_dir = "/pg", .name = "pg2"});
    CHECK(names(ps) == Argv{"before", "pg2-initdb", "pg2"});  // appended; no createdb step
    CHECK(ps[2].user == (::geteuid() == 0 ? "postgres" : ""));  // PostgreSQL refuses root
    CHECK(stand_panel_kit::add_postgresql(ps, {.bin_dir = "/pg", .user = "", .name = "pg3"}).name == "pg3");
    CHECK(ps.back().user.empty());  // "" is stand's user, as asked
    CHECK(ps[2].data == Argv{"pg2"});
    CHECK(db.url == "postgresql://postgres@/postgres?host=${socket_dir}/pg2&port=5432");
    CHECK(db.database.empty());
}

TEST_CASE("panel companions: MariaDB on a unix socket, its root account without a password, its database made once") {
    std::vector<PanelProcess> ps;
    const auto db = stand_panel_kit::add_mariadb(ps, {.database = "panel", .server = "/s/mariadbd",
                                                      .install_db = "/b/mariadb-install-db", .client = "/b/mariadb",
                                                      .user = "mysql", .args = {"--innodb-buffer-pool-size=64M"}});
    REQUIRE(names(ps) == Argv{"mariadb-install-db", "mariadb", "mariadb-createdb"});
    CHECK(ps[0].one_shot);
    CHECK(ps[0].when == RunWhen::first_start);
    CHECK(ps[0].argv == Argv{"/b/mariadb-install-db", "--no-defaults", "--datadir=${data_dir}/mariadb",
                             "--auth-root-authentication-method=normal", "--skip-test-db"});
    CHECK(ps[1].argv == Argv{"/s/mariadbd", "--no-defaults", "--datadir=${data_dir}/mariadb",
                             "--socket=${socket_dir}/mariadb/mariadb.sock", "--pid-file=${data_dir}/mariadb/mariadb.pid",
                             "--skip-networking", "--innodb-buffer-pool-size=64M"});
    CHECK(ps[1].ready.unix_socket == "${socket_dir}/mariadb/mariadb.sock");
    CHECK(ps[1].ready.tcp.empty());
    CHECK(ps[1].on_restart == OnRestart::persists);
    CHECK(ps[1].stop_signal == SIGTERM);
    CHECK(ps[1].stop_timeout_ms == 30000);
    for (int i : {0, 1}) {
        CHECK(ps[i].user == "mysql");
        CHECK(ps[i].data == Argv{"mariadb"});
        CHECK(ps[i].working_dir == "${data_dir}/mariadb");
    }
    CHECK(ps[2].user.empty());
    CHECK(ps[2].argv == Argv{"/b/mariadb", "--no-defaults", "-u", "root", "--socket=${socket_dir}/mariadb/mariadb.sock",
                             "-e", "CREATE DATABASE IF NOT EXISTS `panel`"});
    CHECK(db.socket == "${socket_dir}/mariadb/mariadb.sock");
    CHECK(db.user == "root");
    CHECK(db.url == "mysql://root@localhost/panel?unix_socket=${socket_dir}/mariadb/mariadb.sock");
    CHECK(db.client == Argv{"/b/mariadb", "--no-defaults", "-u", "root", "--socket=${socket_dir}/mariadb/mariadb.sock",
                            "--database=panel"});
}

TEST_CASE("panel companions: MariaDB on TCP, and as root when asked to run as stand's root") {
    std::vector<PanelProcess> ps;
    const auto db = stand_panel_kit::add_mariadb(ps, {.tcp = "127.0.0.1:${db_port}", .server = "mariadbd",
                                                      .install_db = "mariadb-install-db", .client = "mariadb", .user = ""});
    REQUIRE(names(ps) == Argv{"mariadb-install-db", "mariadb"});
    const bool root = ::geteuid() == 0;
    Argv server{"mariadbd", "--no-defaults", "--datadir=${data_dir}/mariadb", "--socket=${socket_dir}/mariadb/mariadb.sock",
                "--pid-file=${data_dir}/mariadb/mariadb.pid", "--bind-address=127.0.0.1", "--port=${db_port}"};
    Argv install{"mariadb-install-db", "--no-defaults", "--datadir=${data_dir}/mariadb",
                 "--auth-root-authentication-method=normal", "--skip-test-db"};
    if (root) {
        server.push_back("--user=root");  // mariadbd runs as root only when told to
        install.push_back("--user=root");
    }
    CHECK(ps[1].argv == server);
    CHECK(ps[0].argv == install);
    CHECK(ps[1].user.empty());
    CHECK(ps[1].ready.tcp == "127.0.0.1:${db_port}");
    CHECK(ps[1].ready.unix_socket.empty());
    CHECK(db.host == "127.0.0.1");
    CHECK(db.port == "${db_port}");
    CHECK(db.url == "mysql://root@127.0.0.1:${db_port}/");
    CHECK(db.client == Argv{"mariadb", "--no-defaults", "-u", "root", "--protocol=TCP", "--host=127.0.0.1",
                            "--port=${db_port}"});
    std::vector<PanelProcess> by_default;
    stand_panel_kit::add_mariadb(by_default);
    CHECK(by_default[1].user == (root ? "mysql" : ""));
}

TEST_CASE("panel companions: Redis on a unix socket, no persistence, and on TCP as Remnawave runs it") {
    std::vector<PanelProcess> ps;
    const auto cache = stand_panel_kit::add_redis(ps, {.server = "/r/redis-server", .client = "/r/redis-cli"});
    REQUIRE(names(ps) == Argv{"redis"});
    CHECK(ps[0].argv == Argv{"/r/redis-server", "--port", "0", "--unixsocket", "${socket_dir}/redis/redis.sock", "--save",
                             "", "--appendonly", "no", "--maxmemory-policy", "noeviction", "--loglevel", "warning",
                             "--dir", "${data_dir}/redis"});
    CHECK(ps[0].ready.unix_socket == "${socket_dir}/redis/redis.sock");
    CHECK(ps[0].on_restart == OnRestart::persists);
    CHECK(ps[0].data == Argv{"redis"});
    CHECK(ps[0].user.empty());
    CHECK(cache.url == "unix://${socket_dir}/redis/redis.sock");
    CHECK(cache.client == Argv{"/r/redis-cli", "-s", "${socket_dir}/redis/redis.sock"});
    CHECK(cache.user.empty());

    // plugins/remnawave before the kit had these declarations (2026-12-06).
    std::vector<PanelProcess> remna;
    const auto tcp = stand_panel_kit::add_redis(remna, {.tcp = "127.0.0.1:${redis_port}", .server = "redis-server"});
    CHECK(remna[0].argv == Argv{"redis-server", "--port", "${redis_port}", "--bind", "127.0.0.1", "--save", "",
                                "--appendonly", "no", "--maxmemory-policy", "noeviction", "--loglevel", "warning",
                                "--dir", "${data_dir}/redis"});
    CHECK(remna[0].ready.tcp == "127.0.0.1:${redis_port}");
    CHECK(remna[0].ready.unix_socket.empty());
    CHECK(tcp.socket.empty());
    CHECK(tcp.url == "redis://127.0.0.1:${redis_port}");
    CHECK(tcp.host == "127.0.0.1");
    CHECK(tcp.port == "${redis_port}");
}

TEST_CASE("panel companions: programs are found on PATH, else where Debian puts them, else named bare") {
    stand::test::TempDir dir;
    const auto bin = dir.path() / "bin";
    std::filesystem::create_directories(bin);
    {
        const PathFor path(bin.string());
        std::vector<PanelProcess> ps;
        stand_panel_kit::add_redis(ps);
        CHECK(ps[0].argv[0] == "redis-server");  // missing: install() names it, with the hint
        CHECK(ps[0].install_hint.find("apt-get install redis-server") != std::string::npos);
        fake_program(bin / "valkey-server");
        fake_program(bin / "valkey-cli");
        ps.clear();
        const auto c = stand_panel_kit::add_redis(ps);
        CHECK(ps[0].argv[0] == "valkey-server");
        CHECK(c.client[0] == "valkey-cli");
        for (const char* p : {"initdb", "postgres", "pg_isready", "psql"}) fake_program(bin / p);
        CHECK(stand_panel_kit::postgresql_bin_dir() == bin.string());  // all four: PATH's folder first
        ps.clear();
        stand_panel_kit::add_postgresql(ps);
        CHECK(ps[0].argv[0] == (bin / "initdb").string());
        ps.clear();
        stand_panel_kit::add_mariadb(ps, {.install_hint = "config.mariadb names it"});
        CHECK(ps[0].argv[0] == "mariadb-install-db");
        CHECK(ps[0].install_hint == "config.mariadb names it");
    }
}

TEST_CASE("panel companions: PostgreSQL's programs are those of the folder initdb links to, all four there") {
    // A machine with only initdb and postgres linked into /usr/local/bin
    // (pg_isready and psql are Debian's wrappers elsewhere): the folder they
    // link to holds all four.
    stand::test::TempDir dir;
    const auto real = dir.path() / "lib" / "postgresql" / "15" / "bin";
    for (const char* p : {"initdb", "postgres", "pg_isready", "psql"}) fake_program(real / p);
    const auto links = dir.path() / "local-bin";
    std::filesystem::create_directories(links);
    std::filesystem::create_symlink(real / "initdb", links / "initdb");
    std::filesystem::create_symlink(real / "postgres", links / "postgres");
    const PathFor path(links.string());
    CHECK(stand_panel_kit::postgresql_bin_dir() == std::filesystem::canonical(real).string());
}

TEST_CASE("panel companions: options that cannot work are refused, naming the server and the option") {
    std::vector<PanelProcess> ps;
    CHECK(invalid_argument([&] { stand_panel_kit::add_postgresql(ps, {.database = "my db"}); }) ==
          "the kit's PostgreSQL declaration: database \"my db\" is not an identifier (A-Z a-z 0-9 _, not starting "
          "with a digit)");
    CHECK(invalid_argument([&] { stand_panel_kit::add_mariadb(ps, {.database = "x`; DROP"}); }).find(
              "MariaDB declaration: database") != std::string::npos);
    CHECK(invalid_argument([&] { stand_panel_kit::add_redis(ps, {.tcp = "6379"}); }) ==
          "the kit's Redis declaration: tcp \"6379\" is not HOST:PORT");
    CHECK(invalid_argument([&] { stand_panel_kit::add_redis(ps, {.name = ""}); }).find("name \"\"") !=
          std::string::npos);
    CHECK(invalid_argument([&] { stand_panel_kit::add_postgresql(ps, {.name = "../x"}); }).find("is not a process name") !=
          std::string::npos);
    CHECK(ps.empty());  // nothing appended by a refused declaration
}
