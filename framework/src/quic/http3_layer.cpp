#include "quic/http3_layer.hpp"

#include <ngtcp2/ngtcp2.h>

namespace stand::quic {
namespace {

Http3Layer& layer_of(void* user_data) { return *static_cast<Http3Layer*>(user_data); }

std::string_view view_of(nghttp3_rcbuf* buf) {
    nghttp3_vec v = nghttp3_rcbuf_get_buf(buf);
    return {reinterpret_cast<const char*>(v.base), v.len};
}

int cb_stream_close(nghttp3_conn*, std::int64_t stream_id, std::uint64_t app_error, void* user_data, void*) {
    auto& layer = layer_of(user_data);
    if (ngtcp2_is_bidi_stream(stream_id)) layer.listener().on_stream_closed(stream_id, app_error);
    else layer.connection().allow_peer_uni_stream();
    return 0;
}

int cb_recv_data(nghttp3_conn*, std::int64_t stream_id, const std::uint8_t* data, std::size_t len, void* user_data,
                 void*) {
    auto& layer = layer_of(user_data);
    layer.connection().consume(stream_id, len);
    layer.listener().on_body(stream_id, data, len);
    return 0;
}

int cb_deferred_consume(nghttp3_conn*, std::int64_t stream_id, std::size_t consumed, void* user_data, void*) {
    layer_of(user_data).connection().consume(stream_id, consumed);
    return 0;
}

int cb_recv_header(nghttp3_conn*, std::int64_t stream_id, std::int32_t, nghttp3_rcbuf* name, nghttp3_rcbuf* value,
                   std::uint8_t, void* user_data, void*) {
    layer_of(user_data).listener().on_header(stream_id, view_of(name), view_of(value));
    return 0;
}

int cb_end_headers(nghttp3_conn*, std::int64_t stream_id, int, void* user_data, void*) {
    layer_of(user_data).listener().on_headers_done(stream_id);
    return 0;
}

int cb_end_stream(nghttp3_conn*, std::int64_t stream_id, void* user_data, void*) {
    layer_of(user_data).listener().on_end(stream_id);
    return 0;
}

int cb_stop_sending(nghttp3_conn*, std::int64_t stream_id, std::uint64_t app_error, void* user_data, void*) {
    layer_of(user_data).connection().shutdown_stream_read(stream_id, app_error);
    return 0;
}

int cb_reset_stream(nghttp3_conn*, std::int64_t stream_id, std::uint64_t app_error, void* user_data, void*) {
    layer_of(user_data).connection().shutdown_stream_write(stream_id, app_error);
    return 0;
}

nghttp3_ssize read_body(nghttp3_conn*, std::int64_t, nghttp3_vec* vec, std::size_t veccnt, std::uint32_t* flags,
                        void*, void* stream_user_data) {
    // The whole body goes in one vector; stream_user_data is the caller's string.
    const auto* body = static_cast<const std::string*>(stream_user_data);
    if (veccnt == 0 || body == nullptr) return 0;
    vec[0].base = reinterpret_cast<std::uint8_t*>(const_cast<char*>(body->data()));
    vec[0].len = body->size();
    *flags |= NGHTTP3_DATA_FLAG_EOF;
    return 1;
}

}  // namespace

int parse_status_field(std::string_view value) noexcept {
    if (value.size() != 3) return 0;
    int status = 0;
    for (char c : value) {
        if (c < '0' || c > '9') return 0;
        status = status * 10 + (c - '0');
    }
    return status >= 100 && status <= 599 ? status : 0;
}

Http3Layer::Http3Layer(Http3Transport& conn, Http3Listener& listener) : conn_(conn), listener_(listener) {}

Http3Layer::~Http3Layer() {
    if (h3_ != nullptr) nghttp3_conn_del(h3_);
}

int Http3Layer::start() {
    if (h3_ != nullptr) return 0;
    if (conn_.uni_streams_left() < 3) return NGTCP2_ERR_STREAM_LIMIT;
    nghttp3_callbacks callbacks{};
    callbacks.stream_close = cb_stream_close;
    callbacks.recv_data = cb_recv_data;
    callbacks.deferred_consume = cb_deferred_consume;
    callbacks.recv_header = cb_recv_header;
    callbacks.end_headers = cb_end_headers;
    callbacks.end_stream = cb_end_stream;
    callbacks.stop_sending = cb_stop_sending;
    callbacks.reset_stream = cb_reset_stream;
    nghttp3_settings settings;
    nghttp3_settings_default(&settings);
    settings.qpack_max_dtable_capacity = 4096;
    settings.qpack_blocked_streams = 100;
    if (int rv = nghttp3_conn_client_new(&h3_, &callbacks, &settings, nghttp3_mem_default(), this); rv != 0) return rv;
    auto control = conn_.open_uni_stream();
    auto encoder = conn_.open_uni_stream();
    auto decoder = conn_.open_uni_stream();
    if (!control || !encoder || !decoder) return NGTCP2_ERR_STREAM_LIMIT;
    if (int rv = nghttp3_conn_bind_control_stream(h3_, *control); rv != 0) return rv;
    if (int rv = nghttp3_conn_bind_qpack_streams(h3_, *encoder, *decoder); rv != 0) return rv;
    conn_.signal_write();
    return 0;
}

std::int64_t Http3Layer::submit(const std::vector<Http3Field>& fields, const std::string* body) {
    auto id = conn_.open_bidi_stream();
    if (!id) return -1;
    std::vector<nghttp3_nv> nva;
    nva.reserve(fields.size());
    for (const auto& f : fields)
        nva.push_back(nghttp3_nv{reinterpret_cast<std::uint8_t*>(const_cast<char*>(f.name.data())),
                                 reinterpret_cast<std::uint8_t*>(const_cast<char*>(f.value.data())), f.name.size(),
                                 f.value.size(), NGHTTP3_NV_FLAG_NONE});
    nghttp3_data_reader reader{read_body};
    const bool has_body = body != nullptr && !body->empty();
    int rv = nghttp3_conn_submit_request(h3_, *id, nva.data(), nva.size(), has_body ? &reader : nullptr,
                                         has_body ? const_cast<std::string*>(body) : nullptr);
    if (rv != 0) {
        conn_.shutdown_stream(*id, NGHTTP3_H3_INTERNAL_ERROR);
        return -1;
    }
    conn_.signal_write();
    return *id;
}

int Http3Layer::on_stream_data(std::int64_t stream_id, const std::uint8_t* data, std::size_t len, bool fin) {
    if (h3_ == nullptr) return 0;
    auto consumed = nghttp3_conn_read_stream(h3_, stream_id, data, len, fin ? 1 : 0);
    if (consumed < 0) return static_cast<int>(consumed);
    conn_.consume(stream_id, static_cast<std::size_t>(consumed));
    return 0;
}

int Http3Layer::on_acked(std::int64_t stream_id, std::uint64_t len) {
    return h3_ == nullptr ? 0 : nghttp3_conn_add_ack_offset(h3_, stream_id, len);
}

int Http3Layer::on_stream_close(std::int64_t stream_id, std::uint64_t app_error, bool error_set) {
    if (h3_ == nullptr) return 0;
    if (!error_set) app_error = NGHTTP3_H3_NO_ERROR;
    int rv = nghttp3_conn_close_stream(h3_, stream_id, app_error);
    if (rv == NGHTTP3_ERR_STREAM_NOT_FOUND) {
        // A stream that carried nothing nghttp3 saw.
        if (!ngtcp2_is_bidi_stream(stream_id)) conn_.allow_peer_uni_stream();
        return 0;
    }
    return rv;
}

int Http3Layer::on_stream_reset(std::int64_t stream_id) {
    return h3_ == nullptr ? 0 : nghttp3_conn_shutdown_stream_read(h3_, stream_id);
}

void Http3Layer::on_stream_unblocked(std::int64_t stream_id) {
    if (h3_ != nullptr) nghttp3_conn_unblock_stream(h3_, stream_id);
}

int Http3Layer::next_chunk(StreamChunk& chunk) {
    if (h3_ == nullptr) return 0;
    std::int64_t stream_id = -1;
    int fin = 0;
    auto count = nghttp3_conn_writev_stream(h3_, &stream_id, &fin, vecs_.data(), vecs_.size());
    if (count < 0) return static_cast<int>(count);
    chunk.stream_id = stream_id;
    chunk.fin = fin != 0;
    chunk.vecs = vecs_.data();
    chunk.vec_count = static_cast<std::size_t>(count);
    return 0;
}

int Http3Layer::on_written(std::int64_t stream_id, std::size_t len) {
    return h3_ == nullptr ? 0 : nghttp3_conn_add_write_offset(h3_, stream_id, len);
}

void Http3Layer::on_blocked(std::int64_t stream_id) {
    if (h3_ != nullptr) nghttp3_conn_block_stream(h3_, stream_id);
}

void Http3Layer::on_shut_write(std::int64_t stream_id) {
    if (h3_ != nullptr) nghttp3_conn_shutdown_stream_write(h3_, stream_id);
}

}  // namespace stand::quic
