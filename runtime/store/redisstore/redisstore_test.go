package redisstore_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/internal/redistest"
	"github.com/toolgen/toolgen/internal/storetest"
	"github.com/toolgen/toolgen/runtime/store"
	"github.com/toolgen/toolgen/runtime/store/redisstore"
)

func open(t testing.TB) *redisstore.Store {
	srv := redistest.Start(t)
	s, err := redisstore.Open(context.Background(), srv.URL, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestRedis(t *testing.T) { storetest.Check(t, open(t)) }

// TestOpenErrors: a bad URL or a server that does not answer is an error
// naming the URL (without its password) and what to do.
func TestOpenErrors(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"http://localhost:6379", "want redis://host:port/db"},
		// Without retries (see Open's doc) the answer comes at once.
		{"redis://user:secret@127.0.0.1:1/0?max_retries=-1", "does not answer"},
	} {
		_, err := redisstore.Open(context.Background(), tc.url, 0)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%s) err = %v, want it to say %q", tc.url, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("Open(%s) err shows the password: %v", tc.url, err)
		}
	}
}

// BenchmarkStoreCall: the store's cost per tool call, in memory and in a
// Redis on a unix socket, one run.
func BenchmarkStoreCall(b *testing.B) {
	b.Run("memory", func(b *testing.B) { storetest.Bench(b, store.NewMemory(0), 20) })
	b.Run("redis", func(b *testing.B) { storetest.Bench(b, open(b), 20) })
}
