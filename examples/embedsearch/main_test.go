package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeEndpoint answers the OpenAI embeddings API with deterministic
// vectors: one dimension per concept, counting the concept's words.
func fakeEndpoint(t *testing.T, status int) *httptest.Server {
	concepts := [][]string{{"taxi", "cab", "ride"}, {"movie", "film", "films"}, {"weather", "temperature", "conditions"}}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/embeddings" || r.Header.Get("Authorization") != "Bearer test-key" {
			http.Error(w, "bad request "+r.URL.Path, http.StatusBadRequest)
			return
		}
		if status != http.StatusOK {
			http.Error(w, `{"error": "overloaded"}`, status)
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "test-model" {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		var resp struct {
			Data []embedding `json:"data"`
		}
		// Answer in reverse order: the client must sort by index.
		for i := len(req.Input) - 1; i >= 0; i-- {
			v := make([]float32, len(concepts)+1)
			v[len(concepts)] = 0.1
			for _, w := range strings.Fields(strings.ToLower(req.Input[i])) {
				for c, ws := range concepts {
					for _, x := range ws {
						if strings.Trim(w, ".,:") == x {
							v[c]++
						}
					}
				}
			}
			resp.Data = append(resp.Data, embedding{Index: i, Embedding: v})
		}
		_ = json.NewEncoder(w).Encode(resp)
	}))
}

func TestRun(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "test-key")
	srv := fakeEndpoint(t, http.StatusOK)
	defer srv.Close()
	var out, errs bytes.Buffer
	code := run(context.Background(), []string{"-base-url", srv.URL + "/v1", "-model", "test-model", "-n", "2", "I need a taxi"}, &out, &errs)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	// The lexical ranking has no tool saying "taxi"; the hybrid finds the cab.
	want := "bm25f (default):\n  (no match)\nhybrid(bm25f (default)+test-model,rrf k=60):\n  1. RideSharing_GetRide"
	if !strings.HasPrefix(out.String(), want) {
		t.Errorf("output:\n%s\nwant it to start with:\n%s", out.String(), want)
	}
}

func TestRunErrors(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "test-key")
	srv := fakeEndpoint(t, http.StatusServiceUnavailable)
	defer srv.Close()
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"-base-url", srv.URL + "/v1", "-model", "test-model", "taxi"}, 1, "embeddings endpoint answered 503 Service Unavailable"},
		{[]string{"-tools", "testdata/missing.jsonl", "taxi"}, 1, "missing.jsonl"},
		{[]string{}, 2, "usage: embedsearch"},
		{[]string{"-nope"}, 2, "flag provided but not defined"},
	}
	for _, tt := range tests {
		var out, errs bytes.Buffer
		code := run(context.Background(), tt.args, &out, &errs)
		if diff := cmp.Diff(tt.code, code); diff != "" || !strings.Contains(errs.String(), tt.msg) {
			t.Errorf("run(%q) = %d, stderr %q; want %d and %q", tt.args, code, errs.String(), tt.code, tt.msg)
		}
	}
}
