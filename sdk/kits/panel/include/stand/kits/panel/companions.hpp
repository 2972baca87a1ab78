// Ready-made declarations of the servers a panel keeps beside it: PostgreSQL,
// MariaDB and Redis (or Valkey). Each add_*() appends that server's declared
// processes (panel_process.hpp: its first-start steps and the server) to an
// adapter's list and returns how a client reaches it. By default the server
// keeps its data in a folder of the panel's data dir, <data dir>/<name>, and
// listens on a unix socket in that folder, with no TCP port: nothing to
// allocate, nothing another program on the machine can reach, and its data
// wiped with the data dir. One line each in an adapter:
//
//   stand_panel_kit::LaunchConfig lc;
//   const auto db = stand_panel_kit::add_postgresql(lc.processes, {.database = "panel"});
//   const auto cache = stand_panel_kit::add_redis(lc.processes);
//   auto panel = stand_panel_kit::service("panel", {"my-panel", "--port", "${port}"});
//   panel.env = {{"DATABASE_URL", db.url}, {"REDIS_URL", cache.url}};
//   lc.processes.push_back(panel);
//
// Each server is ready (ReadyCheck) before the next entry starts, persists
// across a panel restart (OnRestart::persists), stops gracefully with its own
// signal, and is named with its exit status and its log's end (the log is
// <plugin data dir>/<name>.log) when it dies. Its database is made once per
// data dir (RunWhen::first_start steps: wipe() makes them run again).
//
// The options are aggregates: give the fields by name, in the order they are
// declared ({.database = "panel", .tcp = "127.0.0.1:${db_port}"}); every
// field has an initializer, so -Wextra's missing-field-initializers is quiet. Strings
// may use the adapter's ${...} variables, expanded when the process starts.
// A unix socket is named ${socket_dir}/<name>/<file>: the kit sets
// ${socket_dir} to the data dir, or, where the data dir's path is too long
// for a socket's (107 bytes), to a short link to it in /tmp
// (PanelLifecycle::socket_dir()): the socket is in the data folder either way.
//
// Threads and ownership: these only build data. Call them where the adapter
// declares its processes (its constructor, on the host's thread); they read
// PATH and look at the file system to find the programs, and start nothing.
// The processes are appended by value: the adapter may change them after
// (a longer ReadyCheck::timeout_ms, a box). A program not found is left as
// its bare name, so that install() names it with the options' install_hint.
// Options that cannot work (an empty name, a database name that is not an
// identifier, "tcp" without a port) throw stand::cpp::Error(
// STAND_E_INVALID_ARGUMENT) naming the server and the option.
#pragma once

#include <stand/kits/panel/panel_process.hpp>

#include <optional>
#include <string>
#include <vector>

namespace stand_panel_kit {

// How a client reaches a server that add_*() declared. Every string may hold
// the adapter's variables (${data_dir}, ...): put them where the kit expands
// them (a process's argv or env), not into a file the adapter writes itself.
struct Companion {
    std::string name;         // the server's process name (its log is <name>.log)
    std::string folder;       // its data folder: ${data_dir}/<name>
    std::string socket;       // its unix socket's path, ${socket_dir}/<name>/<file> ("" on TCP only)
    std::string host, port;   // its TCP address ("tcp" option); PostgreSQL on a socket: "" and the port its
                              // socket is named after (.s.PGSQL.<port>)
    std::string user;         // the account the clients use: PostgreSQL "postgres" (trust), MariaDB "root"
                              // (no password); Redis "" (no account)
    std::string database;     // the database made once per data dir ("": none)
    std::string url;          // what most clients take, below per server; others build theirs from the fields above
    std::vector<std::string> client;  // the server's own client, connected to it (and to `database`): append a
                                      // statement or a command, e.g. client + {"-c", "SELECT 1"} for psql
};

// PostgreSQL: a cluster of its own in <data dir>/<name>, made by initdb
// (superuser "postgres", trust authentication, UTF8, locale C.UTF-8) at the
// first start; the server on the socket ${socket_dir}/<name>/.s.PGSQL.5432,
// no TCP; ready when pg_isready answers; stopped with SIGINT (PostgreSQL's
// "fast" shutdown, what `docker stop` does to its image). `database`, when
// given, is made once after the server is ready (CREATE DATABASE through
// psql). Processes: <name>-initdb (step), <name> (server), <name>-createdb
// (step, with a database). url:
// postgresql://postgres@/<database>?host=<socket's folder>&port=5432 on the socket
// (libpq's form: psql, psycopg, SQLAlchemy's postgresql+psycopg://, Prisma),
// postgresql://postgres@<host>:<port>/<database> on TCP; <database> is
// "postgres" when none is made.
struct PostgresqlOptions {
    std::string database{};             // made at the first start; "": only the cluster's "postgres"
    std::string tcp{};                  // "": the socket only; "HOST:PORT" (numeric host): TCP only, no socket
    std::string bin_dir{};              // initdb, postgres, pg_isready, psql; "": postgresql_bin_dir()
    std::optional<std::string> user{};  // who the server and initdb run as; unset: "postgres" when stand runs as
                                        // root (PostgreSQL refuses root: its folder is made that user's), else
                                        // stand's user; "": stand's user
    std::vector<std::string> settings{};  // server settings "name=value", each passed as -c ("timezone=UTC")
    std::string name = "postgres";      // the server's process name and data folder
    std::string install_hint{};         // install()'s advice when initdb is missing; "": Debian's package
};
Companion add_postgresql(std::vector<PanelProcess>& processes, const PostgresqlOptions& options = {});

// The folder of the programs a PostgreSQL declaration runs (initdb,
// postgres, pg_isready, psql): the first that holds all four of the folder
// of `initdb` on PATH, the folder of the file that initdb links to, and
// /usr/lib/postgresql/<major>/bin, the newest major first (Debian's
// postgresql-<major> puts them there, off PATH); else the folder of initdb
// on PATH; else "" (the declaration then names the programs bare, and
// install() says initdb is missing).
std::string postgresql_bin_dir();

// MariaDB (or MySQL's mysqld with the same options): a data dir of its own in
// <data dir>/<name>, made by mariadb-install-db (account root@localhost
// without a password, no test database) at the first start; mariadbd with
// --no-defaults (no /etc/mysql config is read) on the socket
// ${socket_dir}/<name>/mariadb.sock, --skip-networking; ready when the socket
// accepts a connection (mariadbd makes it once it serves); stopped with
// SIGTERM (30 s, then SIGKILL). `database`, when given, is made once
// through the client. Processes: <name>-install-db (step), <name> (server),
// <name>-createdb (step, with a database). url:
// mysql://root@localhost/<database>?unix_socket=<socket> on the socket (the
// form of SQLAlchemy's mysql+mysqldb:// and mysql+pymysql://: put the
// driver's scheme in front), mysql://root@<host>:<port>/<database> on TCP.
struct MariadbOptions {
    std::string database{};             // made at the first start; "": none
    std::string tcp{};                  // "": the socket only; "HOST:PORT" (numeric host): TCP too (the socket stays)
    std::string server{};               // "": mariadbd on PATH, else /usr/sbin/mariadbd (Debian's, off a user's PATH)
    std::string install_db{};           // "": mariadb-install-db on PATH
    std::string client{};               // "": mariadb on PATH
    std::optional<std::string> user{};  // who the server and mariadb-install-db run as; unset: "mysql" when stand
                                        // runs as root, else stand's user; "": stand's user (as root: --user=root,
                                        // which mariadbd wants before it runs as root)
    std::vector<std::string> args{};    // more server options, e.g. "--innodb-buffer-pool-size=64M"
    std::string name = "mariadb";       // the server's process name and data folder
    std::string install_hint{};         // install()'s advice when mariadb-install-db is missing; "": Debian's package
};
Companion add_mariadb(std::vector<PanelProcess>& processes, const MariadbOptions& options = {});

// Redis (or Valkey, whose server takes the same options): redis-server on the
// socket ${socket_dir}/<name>/redis.sock, no TCP port (--port 0), no
// persistence (--save "" --appendonly no: it persists across a panel
// restart as a process, not on disk), --maxmemory-policy noeviction,
// --loglevel warning, its working folder <data dir>/<name>; ready when it
// accepts a connection; stopped with SIGTERM. Process: <name>. url:
// unix://<socket> on the socket (redis-py's from_url form; Celery writes
// redis+socket://<socket>, other clients take the socket's path),
// redis://<host>:<port> on TCP.
struct RedisOptions {
    std::string tcp{};                  // "": the socket only; "HOST:PORT" (numeric host): TCP only, no socket
    std::string server{};               // "": redis-server on PATH, else valkey-server on PATH
    std::string client{};               // "": redis-cli on PATH, else valkey-cli on PATH
    std::string user{};                 // who it runs as; "": stand's user (Redis runs as root)
    std::vector<std::string> args{};    // more server options, e.g. {"--maxmemory", "256mb"}
    std::string name = "redis";         // the server's process name and data folder
    std::string install_hint{};         // install()'s advice when the server is missing; "": Debian's package
};
Companion add_redis(std::vector<PanelProcess>& processes, const RedisOptions& options = {});

}  // namespace stand_panel_kit
