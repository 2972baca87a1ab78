package main

import (
	"encoding/json"
	"net/http"
	"sync"
)

// control is the HTTP/1.1 control API:
//
//	PUT    /users/<auth>  add a user (204)
//	DELETE /users/<auth>  remove a user (204, 404 if absent)
//	GET    /users         JSON array of auth strings, sorted
//	GET    /stats         JSON counters
//	GET    /traffic       {"<auth>": {"tx": N, "rx": N}}: each user's proxied bytes
//	GET    /ready         200 while the QUIC listener is up, 503 otherwise
//
// <auth> is percent-decoded and may contain '/'. A PUT of an existing user
// changes nothing (204, no restart). With restartOnChange every real change
// restarts the Hysteria server before the response is sent.
type control struct {
	sup             *supervisor
	users           *userStore
	stats           *stats
	traffic         *traffic
	restartOnChange bool

	changeMu sync.Mutex // serialises change+restart
}

func (c *control) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("PUT /users/{auth...}", c.putUser)
	mux.HandleFunc("DELETE /users/{auth...}", c.deleteUser)
	mux.HandleFunc("GET /users", c.listUsers)
	mux.HandleFunc("GET /stats", c.getStats)
	mux.HandleFunc("GET /ready", c.getReady)
	mux.HandleFunc("GET /traffic", c.getTraffic)
	return mux
}

func (c *control) putUser(w http.ResponseWriter, r *http.Request) {
	auth := r.PathValue("auth")
	if auth == "" {
		http.Error(w, "empty auth", http.StatusBadRequest)
		return
	}
	c.changeMu.Lock()
	defer c.changeMu.Unlock()
	if c.users.add(auth) {
		c.stats.logf("user add user=%q", auth)
		if !c.afterChange(w) {
			return
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

func (c *control) deleteUser(w http.ResponseWriter, r *http.Request) {
	auth := r.PathValue("auth")
	c.changeMu.Lock()
	defer c.changeMu.Unlock()
	if !c.users.remove(auth) {
		http.Error(w, "no such user", http.StatusNotFound)
		return
	}
	c.stats.logf("user delete user=%q", auth)
	if !c.afterChange(w) {
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// afterChange restarts the server if configured to; on failure it writes a
// 500 and returns false.
func (c *control) afterChange(w http.ResponseWriter) bool {
	if !c.restartOnChange {
		return true
	}
	if err := c.sup.restart(); err != nil {
		http.Error(w, "restart failed: "+err.Error(), http.StatusInternalServerError)
		return false
	}
	return true
}

func (c *control) listUsers(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, c.users.list())
}

func (c *control) getStats(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, c.stats.snapshot(c.users.count()))
}

func (c *control) getTraffic(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, c.traffic.snapshot())
}

func (c *control) getReady(w http.ResponseWriter, r *http.Request) {
	if !c.sup.ready() {
		http.Error(w, "not ready", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/plain")
	_, _ = w.Write([]byte("ready\n"))
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
