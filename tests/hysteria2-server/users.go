package main

import (
	"bufio"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
)

// userStore is the set of accepted Hysteria auth strings. It is the
// server.Authenticator: the library asks it once per connection, when the
// client's POST /auth arrives, so a change affects new authentications only.
type userStore struct {
	mu    sync.RWMutex
	users map[string]struct{}
	stats *stats
}

func newUserStore(s *stats) *userStore {
	return &userStore{users: make(map[string]struct{}), stats: s}
}

// loadFile adds one user per non-empty line (surrounding blanks trimmed).
func (u *userStore) loadFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			u.add(line)
		}
	}
	return sc.Err()
}

// add reports whether auth was new.
func (u *userStore) add(auth string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if _, ok := u.users[auth]; ok {
		return false
	}
	u.users[auth] = struct{}{}
	return true
}

// remove reports whether auth was present.
func (u *userStore) remove(auth string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if _, ok := u.users[auth]; !ok {
		return false
	}
	delete(u.users, auth)
	return true
}

func (u *userStore) list() []string {
	u.mu.RLock()
	defer u.mu.RUnlock()
	out := make([]string, 0, len(u.users))
	for a := range u.users {
		out = append(out, a)
	}
	slices.Sort(out)
	return out
}

func (u *userStore) count() int {
	u.mu.RLock()
	defer u.mu.RUnlock()
	return len(u.users)
}

// Authenticate implements server.Authenticator. The id handed back to the
// library (and later to the event logger) is the auth string itself.
func (u *userStore) Authenticate(addr net.Addr, auth string, tx uint64) (bool, string) {
	u.mu.RLock()
	_, ok := u.users[auth]
	u.mu.RUnlock()
	if ok {
		u.stats.authOK.Add(1)
		return true, auth
	}
	u.stats.authFail.Add(1)
	u.stats.logf("auth fail addr=%s", addr)
	return false, ""
}
