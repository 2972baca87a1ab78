// What `stand fleet facts` prints on a host and `stand fleet check` reads
// back: this stand (version, plugin ABI, SDK, build-id), the cgroup
// interface, the online CPUs and the machine (detect/host_facts.hpp).
#pragma once

#include <boost/json/object.hpp>

namespace stand::fleet {

boost::json::object own_facts();

// Why a host's facts (from own_facts() there) do not match this stand's
// build, or "" when they do: a run may use only a host whose stand has the
// same version, ABI and build.
std::string mismatch(const boost::json::object& local, const boost::json::object& remote);

}  // namespace stand::fleet
