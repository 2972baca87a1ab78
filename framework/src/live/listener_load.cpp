#include "live/listener_load.hpp"

namespace stand::live {

void ListenerLoad::add(const ListenerLoad& more) noexcept {
    requests += more.requests;
    paced += more.paced;
    refused += more.refused;
    timed_out += more.timed_out;
    if (more.cap != 0) cap = more.cap;
}

ListenerLoad ListenerLoad::since(const ListenerLoad& earlier) const noexcept {
    return {requests - earlier.requests, paced - earlier.paced, refused - earlier.refused,
            timed_out - earlier.timed_out, cap};
}

}  // namespace stand::live
