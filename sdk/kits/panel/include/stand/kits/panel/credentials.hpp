// Admin credentials of a panel, of the form its admin API takes: a login
// (username and password) or a key or token (an X-API-Key header, a bearer
// the operator made). Given in the config, or generated once and kept in the
// plugin's data dir (mode 0600) so a restarted run signs in with the same
// ones. Never logged; facts() reports only where they are. compat's
// wrong-credentials check merges its target's "wrong_credentials" over the
// config: {"password": "nope"} for a login, {"<key name>": "nope"} for a key.
#pragma once

#include <stand/cpp/config_spec.hpp>
#include <stand/cpp/host.hpp>

#include <filesystem>
#include <string>

namespace stand_panel_kit {

struct Credentials {
    std::string username;
    std::string password;
};

// Declares config.username (default `default_username`, described by
// `username_note`) and config.password, a secret (writeOnly): `password_note`
// says what the panel wants of it; the description adds that one is
// generated and kept 0600 when absent, and that it is never logged.
void declare_credential_keys(stand::cpp::ConfigSpec& spec, const std::string& default_username,
                             const std::string& username_note, const std::string& password_note);
// The credentials the config gives (an empty password: none given).
Credentials read_given_credentials(stand::cpp::ConfigValues& cfg);

// `given` wins when its password is non-empty (the user chose it; a wrong
// one must fail, not be replaced). Otherwise `file` ({"username", "password"})
// when it exists, else a password of `prefix` + 24 random hex digits +
// `suffix` (panels with password rules get e.g. suffix "Aa1") is generated
// and written there with mode 0600. The password is marked a secret on
// `host` (stand.secrets/1), so the host never writes it.
Credentials load_or_create_credentials(const stand::cpp::Host& host, const std::filesystem::path& file,
                                       const Credentials& given, const std::string& prefix = "bn-",
                                       const std::string& suffix = "");

// A key or token in place of a login: config.<name>, a string, a secret
// (writeOnly), optional in the schema either way. Its description is `note`,
// then, with `generated_when_absent` (the panel lets the adapter choose the
// key at its first start; load_or_create_api_key() makes one), "; generated
// and kept 0600 beside the data dir when absent", then "; never logged".
// Without it the kit adds nothing about where the key comes from: `note`
// says it ("needed: copy it from the panel's settings page", or "read from
// the panel's CLI at first start when absent"), and the adapter decides what
// an absent key means (its error, or reading it from the panel).
void declare_api_key(stand::cpp::ConfigSpec& spec, const std::string& name, const std::string& note,
                     bool generated_when_absent);
// `given` when it is not empty; else the key kept in `file`, else `bytes`
// random bytes as hex, written there with mode 0600. Marked a secret on `host`.
std::string load_or_create_api_key(const stand::cpp::Host& host, const std::filesystem::path& file,
                                   const std::string& given, std::size_t bytes = 32);

// Writes `text` to `file` with mode 0600 (secrets: credentials, an API
// token, a generated .env); the parent folder is created.
void write_private_file(const std::filesystem::path& file, const std::string& text);

// n random bytes as lower-case hex, from /dev/urandom (OpenSSL RAND_bytes).
std::string random_hex(std::size_t bytes);
// A random (version 4) UUID, lower-case: what panels use as a user's VLESS id.
std::string random_uuid();

}  // namespace stand_panel_kit
