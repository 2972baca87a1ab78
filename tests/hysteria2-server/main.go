// Command hy2server is the stand's Hysteria 2 test server: the real
// github.com/apernet/hysteria/core/v2 server library behind a small HTTP
// control API (users, stats, readiness) and a loopback-only outbound.
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

type config struct {
	listen          string
	certFile        string
	keyFile         string
	controlAddr     string
	usersFile       string
	restartOnChange bool
	obfsPassword    string
	maxTxMbit       uint64
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("hy2server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.listen, "listen", "", "UDP address for Hysteria 2, e.g. 127.0.0.1:8443 (required; port 0 picks one)")
	fs.StringVar(&c.certFile, "cert", "", "TLS certificate chain, PEM (required)")
	fs.StringVar(&c.keyFile, "key", "", "TLS private key, PEM (required)")
	fs.StringVar(&c.controlAddr, "control", "", "TCP address of the HTTP control API (required; port 0 picks one)")
	fs.StringVar(&c.usersFile, "users", "", "file with initial users, one auth string per line")
	fs.BoolVar(&c.restartOnChange, "restart-on-change", false, "restart the whole server (dropping all connections) on every user change")
	fs.StringVar(&c.obfsPassword, "obfs-password", "", "enable Salamander obfuscation with this password (min 4 bytes)")
	fs.Uint64Var(&c.maxTxMbit, "max-tx-mbit", 0, "honour the download rate a client declares (Hysteria-CC-RX) up to this many Mbit/s: Brutal at that rate toward it (0: ignore it, BBR)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() != 0 {
		return c, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	for name, v := range map[string]string{"--listen": c.listen, "--cert": c.certFile, "--key": c.keyFile, "--control": c.controlAddr} {
		if v == "" {
			return c, fmt.Errorf("%s is required", name)
		}
	}
	if c.obfsPassword != "" && len(c.obfsPassword) < 4 {
		return c, errors.New("--obfs-password must be at least 4 bytes")
	}
	return c, nil
}

// app is one running instance: Hysteria server plus control API.
type app struct {
	stats   *stats
	users   *userStore
	sup     *supervisor
	ctlLn   net.Listener
	ctlSrv  *http.Server
	ctlDone chan struct{}
}

func startApp(c config, logger *log.Logger) (*app, error) {
	cert, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		return nil, fmt.Errorf("load cert/key: %w", err)
	}
	udpAddr, err := net.ResolveUDPAddr("udp", c.listen)
	if err != nil {
		return nil, fmt.Errorf("--listen: %w", err)
	}
	st := &stats{log: logger}
	users := newUserStore(st)
	if c.usersFile != "" {
		if err := users.loadFile(c.usersFile); err != nil {
			return nil, fmt.Errorf("--users: %w", err)
		}
	}
	tr := newTraffic()
	sup, err := newSupervisor(udpAddr, cert, c.obfsPassword, c.maxTxMbit*125000, users, st, tr)
	if err != nil {
		return nil, err
	}
	ctlLn, err := net.Listen("tcp", c.controlAddr)
	if err != nil {
		return nil, fmt.Errorf("--control: %w", err)
	}
	if err := sup.start(); err != nil {
		_ = ctlLn.Close()
		return nil, fmt.Errorf("--listen: %w", err)
	}
	ctl := &control{sup: sup, users: users, stats: st, traffic: tr, restartOnChange: c.restartOnChange}
	a := &app{
		stats: st, users: users, sup: sup, ctlLn: ctlLn,
		ctlSrv:  &http.Server{Handler: ctl.handler(), ReadHeaderTimeout: 10 * time.Second},
		ctlDone: make(chan struct{}),
	}
	go func() {
		defer close(a.ctlDone)
		_ = a.ctlSrv.Serve(ctlLn)
	}()
	st.logf("listening udp=%s control=%s users=%d restart_on_change=%v obfs=%v",
		sup.udpAddr(), ctlLn.Addr(), users.count(), c.restartOnChange, c.obfsPassword != "")
	return a, nil
}

func (a *app) udpAddr() *net.UDPAddr { return a.sup.udpAddr() }
func (a *app) controlAddr() net.Addr { return a.ctlLn.Addr() }

func (a *app) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = a.ctlSrv.Shutdown(ctx)
	_ = a.ctlSrv.Close()
	<-a.ctlDone
	_ = a.sup.stop()
}

func main() {
	c, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "hy2server:", err)
		os.Exit(2)
	}
	logger := log.New(os.Stderr, "hy2server: ", log.LstdFlags|log.Lmicroseconds)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	a, err := startApp(c, logger)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hy2server:", err)
		os.Exit(1)
	}
	fmt.Printf("ready udp=%s control=%s\n", a.udpAddr(), a.controlAddr())
	<-ctx.Done()
	logger.Printf("signal: shutting down")
	a.close()
	os.Exit(0)
}
