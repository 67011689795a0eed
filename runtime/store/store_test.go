package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/toolgen/toolgen/internal/storetest"
	"github.com/toolgen/toolgen/runtime/store"
)

func TestMemory(t *testing.T) { storetest.Check(t, store.NewMemory(0)) }

// TestMemoryExpires: a conversation untouched for its ttl is gone; one
// updated meanwhile is kept.
func TestMemoryExpires(t *testing.T) {
	m := store.NewMemory(time.Hour)
	now := time.Unix(1000, 0)
	store.SetClock(m, func() time.Time { return now })
	ctx := context.Background()
	_ = m.Update(ctx, "old", map[string]string{"x": "1"}, nil)
	_ = m.Update(ctx, "kept", map[string]string{"x": "1"}, nil)
	now = now.Add(50 * time.Minute)
	_ = m.Update(ctx, "kept", map[string]string{"y": "2"}, nil)
	now = now.Add(20 * time.Minute)
	if got, _ := m.Load(ctx, "old"); len(got) != 0 {
		t.Errorf("expired conversation loaded: %v", got)
	}
	if got, _ := m.Load(ctx, "kept"); len(got) != 2 {
		t.Errorf("kept conversation = %v, want two fields", got)
	}
}

func BenchmarkStoreCall(b *testing.B) {
	b.Run("memory", func(b *testing.B) { storetest.Bench(b, store.NewMemory(0), 20) })
}
