package main

import (
	"sync"

	"github.com/apernet/hysteria/core/v2/server"
)

// userTraffic is one user's proxied bytes, in the library's terms: Tx went
// from the server to the remote (what the client sent: its upload), Rx came
// back from the remote (its download). The shape of Hysteria's own
// traffic stats API (GET /traffic).
type userTraffic struct {
	Tx uint64 `json:"tx"`
	Rx uint64 `json:"rx"`
}

// traffic is the library's server.TrafficLogger: per-user totals since
// this process started (server restarts keep them). It never asks the
// library to disconnect anyone, so removing a user leaves its established
// connection carrying data, as Xray under 3x-ui v3.6.0 was measured to do.
type traffic struct {
	mu    sync.Mutex
	users map[string]*userTraffic
}

func newTraffic() *traffic { return &traffic{users: make(map[string]*userTraffic)} }

func (t *traffic) LogTraffic(id string, tx, rx uint64) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	u := t.users[id]
	if u == nil {
		u = &userTraffic{}
		t.users[id] = u
	}
	u.Tx += tx
	u.Rx += rx
	return true
}

func (t *traffic) LogOnlineState(string, bool)                      {}
func (t *traffic) TraceStream(server.HyStream, *server.StreamStats) {}
func (t *traffic) UntraceStream(server.HyStream)                    {}

func (t *traffic) snapshot() map[string]userTraffic {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[string]userTraffic, len(t.users))
	for id, u := range t.users {
		out[id] = *u
	}
	return out
}
