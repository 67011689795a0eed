package mcpbridge

import (
	"io"
	"net"
	"net/http"
	"testing"
)

// TestUnusedConnsClosedAtShutdown: once the HTTP shutdown begins, the
// connections that never sent a request are closed, and so is one accepted
// after; a connection serving a request is left to finish.
func TestUnusedConnsClosedAtShutdown(t *testing.T) {
	var u unusedConns
	unused, unusedPeer := net.Pipe()
	late, latePeer := net.Pipe()
	busy, busyPeer := net.Pipe()
	defer busy.Close()
	defer busyPeer.Close()
	u.track(unused, http.StateNew)
	u.track(busy, http.StateNew)
	u.track(busy, http.StateActive)
	u.closeAll()
	u.track(late, http.StateNew)
	for _, tc := range []struct {
		name string
		peer net.Conn
	}{{"unused", unusedPeer}, {"accepted after the shutdown began", latePeer}} {
		if _, err := tc.peer.Read(make([]byte, 1)); err != io.EOF {
			t.Errorf("%s connection: read %v, want io.EOF (closed by the server)", tc.name, err)
		}
	}
	go func() { _, _ = busy.Write([]byte("x")) }()
	if _, err := busyPeer.Read(make([]byte, 1)); err != nil {
		t.Errorf("busy connection: read %v, want it open", err)
	}
}
