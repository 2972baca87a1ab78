// The pieces of `stand compat --record`: body shapes, what an exchange keeps
// of a response, path normalisation (tests/data/real-panels/ format).
#include "compat/recorded_path.hpp"
#include "host/http/body_shape.hpp"
#include "host/http/describe_exchange.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

using namespace stand::host::http;
using stand::compat::normalise_label;
using stand::compat::normalise_path;
using stand::compat::PathNames;
using stand::compat::subscription_tokens;
namespace json = boost::json;

namespace {

std::string shape_text(std::string_view body, std::string_view content_type = "application/json") {
    return json::serialize(body_shape(body, content_type));
}

}  // namespace

TEST_CASE("body shape: scalars, objects with sorted keys, no values") {
    CHECK(shape_text(R"({"success":true,"msg":"secret-token","obj":null,"n":1.5,"i":-3})") ==
          R"({"i":"number","msg":"string","n":"number","obj":"null","success":"boolean"})");
    CHECK(shape_text("") == R"("empty")");
    CHECK(shape_text("dmxlc3M6Ly9hQGI6MQ==", "text/plain") == R"("text")");
    CHECK(shape_text("not json {", "application/json") == R"("text")");
    // a JSON scalar is JSON only when the content type says so
    CHECK(shape_text("42", "text/plain") == R"("text")");
    CHECK(shape_text("42", "application/json") == R"("number")");
    CHECK(shape_text("[]", "") == "[]");
}

TEST_CASE("body shape: arrays merge their elements") {
    CHECK(shape_text(R"([{"a":1},{"b":"x"},{"a":2,"b":"y"}])") == R"([{"a":"number","b":"string"}])");
    CHECK(shape_text(R"([{"a":1},{"a":"x"},{"a":null}])") == R"([{"a":"null|number|string"}])");
    CHECK(shape_text(R"([[],[1],[]])") == R"([["number"]])");
    CHECK(shape_text(R"([{"o":{"k":1}},{"o":null}])") == R"([{"o":"null|object"}])");
    CHECK(shape_text(R"([[1],"s"])") == R"(["array|string"])");
}

TEST_CASE("body shape: merge_shapes is order-free and idempotent") {
    const json::value a = json::parse(R"({"x":"number","y":["string"]})");
    const json::value b = json::parse(R"({"x":"string","z":"boolean","y":[]})");
    CHECK(merge_shapes(a, b) == merge_shapes(b, a));
    CHECK(json::serialize(merge_shapes(a, b)) == R"({"x":"number|string","y":["string"],"z":"boolean"})");
    CHECK(merge_shapes(a, a) == a);
    CHECK(json::serialize(merge_shapes(json::value("number|string"), json::value("null"))) == R"("null|number|string")");
}

TEST_CASE("exchange: media type, cookie names and the listed headers, never values") {
    CHECK(media_type("Application/JSON; charset=utf-8") == "application/json");
    CHECK(media_type("") == "");
    CHECK(cookie_name("3x-ui=MTc0; Path=/; HttpOnly") == "3x-ui");
    CHECK(cookie_name(" sid = v") == "sid");

    Response r;
    r.result(429);
    r.set("Content-Type", "application/json; charset=utf-8");
    r.insert("Set-Cookie", "b=secret-b; Path=/");
    r.insert("Set-Cookie", "a=secret-a");
    r.set("Retry-After", "3");
    r.set("X-Powered-By", "Express");
    r.set("Location", "/login");
    r.body() = R"({"detail":"slow down"})";
    const auto e = describe_exchange("pasarguard list_users", "GET", "/api/users", r);
    CHECK(e.status == 429);
    CHECK(e.content_type == "application/json");
    CHECK(e.cookies == std::set<std::string>{"a", "b"});
    CHECK(e.headers == std::set<std::string>{"location", "retry-after"});
    CHECK(json::serialize(e.body) == R"({"detail":"string"})");
}

TEST_CASE("recorded path: ids, the suite's names and the base path") {
    const PathNames names{{"compat1", "compat-del1", "compat-after-restart"}, {}, {"/Xa9kLm2Qp/", "psfmqrxtyvny"}};
    CHECK(normalise_path("/panel/api/inbounds/get/12", {}) == "/panel/api/inbounds/get/{id}");
    CHECK(normalise_path("/api/users/3f2b8c1e-9a4d-4e5f-8a6b-1c2d3e4f5a6b", {}) == "/api/users/{id}");
    CHECK(normalise_path("/sub/deadbeef", {}) == "/sub/deadbeef");    // 8 hex characters but no digit
    CHECK(normalise_path("/sub/a1b2c3d4e5", {}) == "/sub/{id}");       // hex with a digit
    CHECK(normalise_path("/sub/Zk_9-Qw3Rt", {}) == "/sub/{id}");       // base64url with a digit
    CHECK(normalise_path("/api/v1/users", {}) == "/api/v1/users");     // short segments stay
    // A token nobody reported (a plugin's own probe user), 43 characters and no digit: seen once in CI.
    CHECK(normalise_path("/sub/ahOOTAOWirmEwDxcKISHIPpABSknhdhjfDHWrxwPEUM", {}) == "/sub/{id}");
    CHECK(normalise_path("/mistgate.admin.v1.ProfileService/ListProtocols", {}) ==
          "/mistgate.admin.v1.ProfileService/ListProtocols");              // API words stay
    CHECK(normalise_path("/sub/AbCdEfGhIjKlMnOpQrStU", {}) == "/sub/AbCdEfGhIjKlMnOpQrStU");  // 21: stays
    CHECK(normalise_path("/api/user/compat-del1", names) == "/api/user/{name}");  // a name before an id
    CHECK(normalise_path("/api/user/compat-after-restart", names) == "/api/user/{name}");
    CHECK(normalise_path("/api/user/compat-del1", {}) == "/api/user/{id}");
    CHECK(normalise_path("/Xa9kLm2Qp/panel/api/inbounds/list", names) == "/{base}/panel/api/inbounds/list");
    CHECK(normalise_path("/Xa9kLm2Qp/", names) == "/{base}/");
    CHECK(normalise_path("/Xa9kLm2Qp", names) == "/{base}");
    CHECK(normalise_path("/psfmqrxtyvny/Zk_9-Qw3Rt", names) == "/{base}/{id}");  // a second prefix, without a digit
    CHECK(normalise_path("/psfmqrxtyvny/Zk_9-Qw3Rt", {}) == "/psfmqrxtyvny/{id}");
    CHECK(normalise_path("/Xa9kLm2Qp/", {}) == "/{id}/");              // not reported: one more {id}
    CHECK(normalise_path("/Xa9kLm2Qpx/login", names) == "/{id}/login"); // the prefix ends at a slash
    CHECK(normalise_path("/", names) == "/");
    CHECK(normalise_path("/a//b/", {}) == "/a//b/");
}

TEST_CASE("recorded path: the ids and tokens the panel returned are ids whatever their alphabet") {
    PathNames names{{"compat1"}, {"AbCdEfGhIjKlMnOp", "djMsMSwx.c2ln"}, {}};
    CHECK(normalise_path("/api/sub/AbCdEfGhIjKlMnOp", names) == "/api/sub/{id}");  // a nanoid without a digit
    CHECK(normalise_path("/sub/djMsMSwx.c2ln/", names) == "/sub/{id}/");          // PasarGuard's dotted token
    CHECK(normalise_path("/sub/djMsMSwx.c2ln/", {}) == "/sub/djMsMSwx.c2ln/");
}

TEST_CASE("recorded path: subscription tokens are the segments that differ between users") {
    CHECK(subscription_tokens({"http://127.0.0.1:2096/sub/AbCdEfGhIjKlMnOp", "http://127.0.0.1:2096/sub/QrStUvWxYzAbCdEf?x=1"}) ==
          std::set<std::string>{"AbCdEfGhIjKlMnOp", "QrStUvWxYzAbCdEf"});
    CHECK(subscription_tokens({"https://panel.example/api/sub/tok1/links", "https://panel.example/api/sub/tok2/links"}) ==
          std::set<std::string>{"tok1", "tok2"});
    // one user: the last non-empty segment
    CHECK(subscription_tokens({"http://h:1/sub/onlyone/"}) == std::set<std::string>{"onlyone"});
    CHECK(subscription_tokens({"http://h:1"}).empty());
    CHECK(subscription_tokens({}).empty());
}

TEST_CASE("recorded path: the host's own labels follow the path, chosen labels stay") {
    CHECK(normalise_label("GET /sub/a1b2c3d4e5", "GET", "/sub/a1b2c3d4e5", "/sub/{id}") == "GET /sub/{id}");
    CHECK(normalise_label("3x-ui login", "POST", "/login", "/login") == "3x-ui login");
}
