// Package redisstore is a store.Store in Redis, shared by every replica of
// a server: a conversation is one hash (its fields the hash's fields)
// under the key prefix + conversation, which expires ttl after its last
// update. It is a package of its own so that only a program that asks for
// Redis links its client (github.com/redis/go-redis/v9).
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/toolgen/toolgen/runtime/store"
)

// Store is a store.Store in Redis.
type Store struct {
	c      redis.UniversalClient
	prefix string
	ttl    time.Duration
	addr   string
}

// DefaultPrefix starts the key of every conversation, so that the store
// can share a Redis database with other data.
const DefaultPrefix = "toolgen:conv:"

// Open connects to the Redis server rawURL names (redis://[user:pass@]host:port/db,
// rediss:// for TLS, unix:///path/to/socket) and checks that it answers.
// Conversations expire ttl after their last update (zero:
// store.DefaultTTL). The URL's query sets the client's options as
// go-redis's ParseURL reads them (max_retries, dial_timeout, pool_size, …):
// a server that refuses the connection is tried again for a second or two
// before Open gives up, which ?max_retries=-1 shortens. The error says what
// was wrong with the URL or why the server did not answer.
func Open(ctx context.Context, rawURL string, ttl time.Duration) (*Store, error) {
	opts, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("redis store %q: %w (want redis://host:port/db or unix:///path/to/socket)", redacted(rawURL), err)
	}
	c := redis.NewClient(opts)
	if err := c.Ping(ctx).Err(); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("redis store %s: the server does not answer: %w", redacted(rawURL), err)
	}
	return New(c, DefaultPrefix, ttl, redacted(rawURL)), nil
}

// New returns a store over a client the caller configured; desc names it
// in logs. Close closes the client.
func New(c redis.UniversalClient, prefix string, ttl time.Duration, desc string) *Store {
	if ttl <= 0 {
		ttl = store.DefaultTTL
	}
	return &Store{c: c, prefix: prefix, ttl: ttl, addr: desc}
}

// Load implements store.Store: one HGETALL.
func (s *Store) Load(ctx context.Context, conv string) (map[string]string, error) {
	if conv == "" {
		return nil, store.ErrNoConversation
	}
	m, err := s.c.HGetAll(ctx, s.prefix+conv).Result()
	if err != nil {
		return nil, fmt.Errorf("redis store: loading a conversation: %w", err)
	}
	return m, nil
}

// Update implements store.Store: HDEL, HSET and PEXPIRE in one
// transaction (MULTI/EXEC), one round trip.
func (s *Store) Update(ctx context.Context, conv string, set map[string]string, del []string) error {
	if conv == "" {
		return store.ErrNoConversation
	}
	key := s.prefix + conv
	_, err := s.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		if len(del) > 0 {
			p.HDel(ctx, key, del...)
		}
		if len(set) > 0 {
			p.HSet(ctx, key, set)
		}
		p.PExpire(ctx, key, s.ttl)
		return nil
	})
	if err != nil {
		return fmt.Errorf("redis store: saving a conversation: %w", err)
	}
	return nil
}

// Delete implements store.Store.
func (s *Store) Delete(ctx context.Context, conv string) error {
	if err := s.c.Del(ctx, s.prefix+conv).Err(); err != nil && !errors.Is(err, redis.Nil) {
		return fmt.Errorf("redis store: deleting a conversation: %w", err)
	}
	return nil
}

// Close closes the client.
func (s *Store) Close() error { return s.c.Close() }

// String describes the store for logs, without a password.
func (s *Store) String() string { return fmt.Sprintf("redis %s (ttl %s)", s.addr, s.ttl) }

// redacted is rawURL without its password, for messages.
func redacted(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}
