// The backend could not start (a listener could not be opened, bad options).
#pragma once

#include <stdexcept>

namespace stand::backend {

class BackendError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace stand::backend
