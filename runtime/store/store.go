package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"time"
)

// Store keeps the fields of conversations. Implementations are safe for
// concurrent use.
type Store interface {
	// Load returns every field of the conversation; an unknown (or
	// expired) conversation has none, which is not an error.
	Load(ctx context.Context, conv string) (map[string]string, error)
	// Update sets the fields of set and deletes those named in del, in
	// one step, and restarts the conversation's time-to-live.
	Update(ctx context.Context, conv string, set map[string]string, del []string) error
	// Delete forgets the conversation.
	Delete(ctx context.Context, conv string) error
}

// DefaultTTL is how long a conversation no call touched is kept when a
// store is given no time-to-live of its own.
const DefaultTTL = 24 * time.Hour

// ErrNoConversation is returned for an empty conversation key: state
// kept under no key would be shared by every client.
var ErrNoConversation = errors.New("store: empty conversation key")

// Memory is the in-process Store, the default: a map per conversation,
// forgotten ttl after its last update.
type Memory struct {
	ttl time.Duration
	now func() time.Time

	mu    sync.Mutex
	convs map[string]*memConv
}

type memConv struct {
	fields  map[string]string
	expires time.Time
}

// NewMemory returns an empty in-memory store whose conversations expire
// ttl after their last update (zero: DefaultTTL).
func NewMemory(ttl time.Duration) *Memory {
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	return &Memory{ttl: ttl, now: time.Now, convs: make(map[string]*memConv)}
}

// Load implements Store.
func (m *Memory) Load(_ context.Context, conv string) (map[string]string, error) {
	if conv == "" {
		return nil, ErrNoConversation
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.convs[conv]
	if !ok {
		return map[string]string{}, nil
	}
	if m.now().After(c.expires) {
		delete(m.convs, conv)
		return map[string]string{}, nil
	}
	return maps.Clone(c.fields), nil
}

// Update implements Store.
func (m *Memory) Update(_ context.Context, conv string, set map[string]string, del []string) error {
	if conv == "" {
		return ErrNoConversation
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	m.sweep(now)
	c, ok := m.convs[conv]
	if !ok || now.After(c.expires) {
		c = &memConv{fields: make(map[string]string, len(set))}
		m.convs[conv] = c
	}
	for _, k := range del {
		delete(c.fields, k)
	}
	maps.Copy(c.fields, set)
	c.expires = now.Add(m.ttl)
	return nil
}

// Delete implements Store.
func (m *Memory) Delete(_ context.Context, conv string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.convs, conv)
	return nil
}

// Len returns the number of conversations kept, expired ones included
// until they are swept.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.convs)
}

// sweep drops expired conversations, a bounded number per update so that
// an update stays cheap. Called with mu held.
func (m *Memory) sweep(now time.Time) {
	n := 0
	for k, c := range m.convs {
		if n++; n > 8 {
			return
		}
		if now.After(c.expires) {
			delete(m.convs, k)
		}
	}
}

// String describes the store for logs.
func (m *Memory) String() string { return fmt.Sprintf("memory (ttl %s)", m.ttl) }
