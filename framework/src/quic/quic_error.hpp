// Errors of the QUIC client. A QuicSetupError is thrown before any packet is
// sent (bad options, unreadable CA file, a library refusing its settings);
// failures of a live connection are reported through QuicApp::on_closed.
#pragma once

#include <stdexcept>

namespace stand::quic {

class QuicSetupError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace stand::quic
