// stand C++ helpers: turn a C++ class into a plugin.
//
//   class Hello : public stand::cpp::Instance, public stand::cpp::Lifecycle {
//   public:
//       Hello(const stand::cpp::Host& host, const boost::json::object& config);
//       ... Lifecycle methods ...
//   };
//   STAND_CPP_PLUGIN(Hello, "hello", "Hello adapter", "0.1.0", "Says hello.", config_spec())
//
// The last argument is the config's JSON Schema: a stand::cpp::ConfigSpec
// (config_spec.hpp: the keys the constructor reads, so schema and defaults
// agree), or a JSON text with static storage. A ConfigSpec that throws while
// it is declared gives a schema text that is not JSON and starts with the
// error, so the host refuses to load the plugin and says why.
//
// The macro defines stand_plugin_entry_v1. Interfaces are listed from the base
// classes; every thunk is noexcept and converts exceptions to result codes.
// This header is compiled into the plugin: nothing here crosses the ABI.
#pragma once

#include <stand/plugin.h>

#include <boost/json.hpp>

#include <array>
#include <exception>
#include <string>
#include <type_traits>

#include "config.hpp"
#include "config_spec.hpp"
#include "error.hpp"
#include "host.hpp"
#include "interfaces.hpp"
#include "sink.hpp"

namespace stand::cpp::detail {

template <class T>
T& self_of(stand_instance* self) {
    return static_cast<T&>(*reinterpret_cast<Instance*>(self));
}

inline stand_result emit(const stand_sink* out, const boost::json::value& v) {
    write_to(out, boost::json::serialize(v));
    return STAND_OK;
}

inline boost::json::object parse_object(const char* text, const char* what) {
    boost::system::error_code ec;
    auto v = boost::json::parse(text ? text : "{}", ec);
    if (ec || !v.is_object()) throw Error(STAND_E_INVALID_ARGUMENT, std::string(what) + " must be a JSON object");
    return std::move(v.as_object());
}

template <class T>
struct LifecycleTable {
    static constexpr stand_lifecycle table{
        sizeof(stand_lifecycle),
        [](stand_instance* s, stand_error* e) noexcept { return guarded(e, [&] { return self_of<T>(s).install(); }); },
        [](stand_instance* s, stand_error* e) noexcept { return guarded(e, [&] { return self_of<T>(s).start(); }); },
        [](stand_instance* s, stand_error* e) noexcept { return guarded(e, [&] { return self_of<T>(s).stop(); }); },
        [](stand_instance* s, stand_error* e) noexcept { return guarded(e, [&] { return self_of<T>(s).restart(); }); },
        [](stand_instance* s, stand_error* e) noexcept { return guarded(e, [&] { return self_of<T>(s).wipe(); }); },
        [](stand_instance* s, const stand_sink* o, stand_error* e) noexcept {
            return guarded(e, [&] { return emit(o, self_of<T>(s).readiness()); });
        },
        [](stand_instance* s, const stand_sink* o, stand_error* e) noexcept {
            return guarded(e, [&] { return emit(o, self_of<T>(s).facts()); });
        },
    };
};

template <class T>
struct PanelTable {
    static constexpr stand_panel table{
        sizeof(stand_panel),
        [](stand_instance* s, stand_error* e) noexcept {
            return guarded(e, [&] { self_of<T>(s).bootstrap(); return STAND_OK; });
        },
        [](stand_instance* s, const char* name, const stand_sink* o, stand_error* e) noexcept {
            return guarded(e, [&] { return emit(o, self_of<T>(s).create_user(name ? name : "")); });
        },
        [](stand_instance* s, const char* id, stand_error* e) noexcept {
            return guarded(e, [&] { self_of<T>(s).delete_user(id ? id : ""); return STAND_OK; });
        },
        [](stand_instance* s, stand_error* e) noexcept {
            return guarded(e, [&] { self_of<T>(s).admin_call(); return STAND_OK; });
        },
        [](stand_instance* s, const char* id, const stand_sink* o, stand_error* e) noexcept {
            return guarded(e, [&] { return emit(o, self_of<T>(s).subscription_request(id ? id : "")); });
        },
        [](stand_instance* s, const char* id, int enabled, stand_error* e) noexcept {
            return guarded(e, [&] { self_of<T>(s).set_user_enabled(id ? id : "", enabled != 0); return STAND_OK; });
        },
        [](stand_instance* s, const char* id, std::uint64_t quota_bytes, stand_error* e) noexcept {
            return guarded(e, [&] { self_of<T>(s).set_user_quota(id ? id : "", quota_bytes); return STAND_OK; });
        },
        [](stand_instance* s, const char* id, const stand_sink* o, stand_error* e) noexcept {
            return guarded(e, [&] { return emit(o, self_of<T>(s).user_traffic(id ? id : "")); });
        },
        [](stand_instance* s, const stand_sink* o, stand_error* e) noexcept {
            return guarded(e, [&] { return emit(o, self_of<T>(s).dashboard_requests()); });
        },
    };
};

template <class T>
struct ProxyTable {
    static constexpr stand_proxy table{
        sizeof(stand_proxy),
        [](stand_instance* s, const char* knobs, stand_error* e) noexcept {
            return guarded(e, [&] { self_of<T>(s).configure(parse_object(knobs, "proxy knobs")); return STAND_OK; });
        },
        [](stand_instance* s, const stand_sink* o, stand_error* e) noexcept {
            return guarded(e, [&] { return emit(o, self_of<T>(s).endpoint()); });
        },
        [](stand_instance* s, const stand_sink* o, stand_error* e) noexcept {
            return guarded(e, [&] { return emit(o, self_of<T>(s).effective_defaults()); });
        },
    };
};

template <class T>
struct ProbeTable {
    static constexpr stand_probe table{
        sizeof(stand_probe),
        [](stand_instance* s, const stand_sink* o, stand_error* e) noexcept {
            return guarded(e, [&] { return emit(o, self_of<T>(s).list_jobs()); });
        },
        [](stand_instance* s, const char* job, const char* params, stand_error* e) noexcept {
            return guarded(e, [&] {
                self_of<T>(s).prepare(job ? job : "", parse_object(params, "probe params"));
                return STAND_OK;
            });
        },
        [](stand_instance* s, const char* job, const stand_sink* o, stand_error* e) noexcept {
            return guarded(e, [&] { return emit(o, self_of<T>(s).run(job ? job : "")); });
        },
        [](stand_instance* s, const char* job, stand_error* e) noexcept {
            return guarded(e, [&] { return self_of<T>(s).cleanup(job ? job : ""); });
        },
    };
};

template <class T>
constexpr auto interface_ids() {
    constexpr std::size_t n = std::is_base_of_v<Lifecycle, T> + std::is_base_of_v<Panel, T> +
                              std::is_base_of_v<Proxy, T> + std::is_base_of_v<Probe, T>;
    std::array<const char*, n + 1> ids{};
    std::size_t i = 0;
    if constexpr (std::is_base_of_v<Lifecycle, T>) ids[i++] = Lifecycle::id;
    if constexpr (std::is_base_of_v<Panel, T>) ids[i++] = Panel::id;
    if constexpr (std::is_base_of_v<Proxy, T>) ids[i++] = Proxy::id;
    if constexpr (std::is_base_of_v<Probe, T>) ids[i++] = Probe::id;
    ids[i] = nullptr;
    return ids;
}

inline bool same_id(const char* a, const char* b) {
    if (a == nullptr || b == nullptr) return false;
    while (*a && *a == *b) ++a, ++b;
    return *a == *b;
}

template <class T>
const void* get_interface(const char* id) noexcept {
    if constexpr (std::is_base_of_v<Lifecycle, T>)
        if (same_id(id, Lifecycle::id)) return &LifecycleTable<T>::table;
    if constexpr (std::is_base_of_v<Panel, T>)
        if (same_id(id, Panel::id)) return &PanelTable<T>::table;
    if constexpr (std::is_base_of_v<Proxy, T>)
        if (same_id(id, Proxy::id)) return &ProxyTable<T>::table;
    if constexpr (std::is_base_of_v<Probe, T>)
        if (same_id(id, Probe::id)) return &ProbeTable<T>::table;
    return nullptr;
}

template <class T>
stand_result create(const stand_host* host, const char* config, std::size_t size, stand_instance** out,
                    stand_error* err) noexcept {
    static_assert(std::is_base_of_v<Instance, T>, "a plugin class derives from stand::cpp::Instance");
    if (out == nullptr) return STAND_E_INVALID_ARGUMENT;
    *out = nullptr;
    return guarded(err, [&] {
        boost::json::object cfg = parse_config(config, size);
        Instance* obj = new T(Host(host), cfg);
        *out = reinterpret_cast<stand_instance*>(obj);
        return STAND_OK;
    });
}

// The descriptor's config_schema_json, built once when the entry is first asked for.
class SchemaText {
public:
    template <class Make>
    explicit SchemaText(Make make) noexcept {
        try {
            set(make());
        } catch (const std::exception& e) {
            text_ = std::string("config declaration failed: ") + e.what();
            ptr_ = text_.c_str();
        }
    }
    SchemaText(const SchemaText&) = delete;
    SchemaText& operator=(const SchemaText&) = delete;
    const char* c_str() const noexcept { return ptr_; }

private:
    void set(const char* json) { ptr_ = json; }
    void set(const ConfigSpec& spec) {
        text_ = spec.schema_text();
        ptr_ = text_.c_str();
    }

    std::string text_;
    const char* ptr_ = nullptr;
};

inline void destroy(stand_instance* self) noexcept {
    try {
        delete reinterpret_cast<Instance*>(self);
    } catch (...) {
    }
}

}  // namespace stand::cpp::detail

#define STAND_CPP_PLUGIN(Class, Id, Name, Version, Description, SchemaJson)                              \
    extern "C" STAND_EXPORT const stand_plugin_entry* STAND_ABI stand_plugin_entry_v1(void) {            \
        static constexpr auto ids = ::stand::cpp::detail::interface_ids<Class>();                        \
        static const ::stand::cpp::detail::SchemaText schema{[]() -> decltype(auto) { return (SchemaJson); }}; \
        static const stand_plugin_descriptor descriptor{sizeof(stand_plugin_descriptor),                 \
                                                        Id,                                              \
                                                        Name,                                            \
                                                        Version,                                         \
                                                        Description,                                     \
                                                        ids.data(),                                      \
                                                        schema.c_str(),                                  \
                                                        0};                                              \
        static const stand_plugin_entry entry{                                                           \
            sizeof(stand_plugin_entry),                                                                  \
            {STAND_ABI_MAJOR, STAND_ABI_MINOR},                                                          \
            &descriptor,                                                                                 \
            &::stand::cpp::detail::create<Class>,                                                        \
            &::stand::cpp::detail::destroy,                                                              \
            [](stand_instance*, const char* id) noexcept {                                               \
                return ::stand::cpp::detail::get_interface<Class>(id);                                   \
            },                                                                                           \
        };                                                                                               \
        return &entry;                                                                                   \
    }
