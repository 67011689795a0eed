// Command embedsearch shows tool search with embeddings: a catalog whose
// strategy fuses BM25F with the vectors of an OpenAI-compatible embeddings
// endpoint (catalog.Hybrid), beside the lexical ranking alone.
//
// It needs a service, so it is documented here and not run in CI (its test
// runs it against a fake endpoint in the same process). Any server that
// speaks the OpenAI embeddings API works: OpenAI itself, or a local one
// (llama.cpp's server, Ollama, vLLM, text-embeddings-inference) at its
// /v1 address:
//
//	export OPENAI_API_KEY=sk-...            # not needed by most local servers
//	go run ./examples/embedsearch "I need a taxi to the airport"
//	go run ./examples/embedsearch -base-url http://localhost:11434/v1 -model nomic-embed-text "get me a cab"
//	go run ./examples/embedsearch -tools ../shared/data/toolret/tools.jsonl "whats the whether in Paris"
//
// Flags: -base-url (default $OPENAI_BASE_URL, else https://api.openai.com/v1),
// -model (default $EMBED_MODEL, else text-embedding-3-small), -tools FILE
// (JSON lines of {"name", "description", "parameters"}; a few built-in tools
// otherwise), -n (results, default 5). The tools' vectors are computed once,
// in batches of 64, before the tools are registered (HybridStrategy.Precompute);
// each search then embeds only the query.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/tool"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// run is the command, returning its exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("embedsearch", flag.ContinueOnError)
	fs.SetOutput(stderr)
	baseURL := fs.String("base-url", envOr("OPENAI_BASE_URL", "https://api.openai.com/v1"), "address of the OpenAI-compatible API, up to /v1")
	model := fs.String("model", envOr("EMBED_MODEL", "text-embedding-3-small"), "embedding model")
	toolsPath := fs.String("tools", "", "tools file, JSON lines of {name, description, parameters}; a few built-in tools if empty")
	n := fs.Int("n", catalog.DefaultMaxResults, "how many results to show")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: embedsearch [-base-url URL] [-model NAME] [-tools FILE] [-n N] query...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	query := strings.Join(fs.Args(), " ")
	if strings.TrimSpace(query) == "" {
		fs.Usage()
		return 2
	}
	defs := sampleTools
	if *toolsPath != "" {
		var err error
		if defs, err = readTools(*toolsPath); err != nil {
			fmt.Fprintln(stderr, "embedsearch:", err)
			return 1
		}
	}
	e := &OpenAIEmbedder{BaseURL: *baseURL, Model: *model, APIKey: os.Getenv("OPENAI_API_KEY")}
	var embedErr error
	hybrid := catalog.Hybrid(catalog.BM25(), e, catalog.HybridOptions{
		Name:    *model,
		OnError: func(err error) { embedErr = errors.Join(embedErr, err) },
	})
	docs := make([]catalog.Document, len(defs))
	for i, d := range defs {
		docs[i] = catalog.DocumentOf(d)
	}
	if err := hybrid.Precompute(ctx, docs, 64); err != nil {
		fmt.Fprintln(stderr, "embedsearch:", err)
		return 1
	}
	for _, s := range []catalog.Strategy{catalog.BM25(), hybrid} {
		c := catalog.New(catalog.WithStrategy(s))
		for _, d := range defs {
			if err := c.RegisterAs(tool.New(d, nil), tool.Deferred); err != nil {
				fmt.Fprintln(stderr, "embedsearch:", err)
				return 1
			}
		}
		fmt.Fprintf(stdout, "%s:\n", s.Name())
		ms := c.Search(query, *n)
		if len(ms) == 0 {
			fmt.Fprintln(stdout, "  (no match)")
		}
		for i, m := range ms {
			fmt.Fprintf(stdout, "  %d. %s (%.4f)\n", i+1, m.Name, m.Score)
		}
	}
	if embedErr != nil {
		fmt.Fprintln(stderr, "embedsearch: the hybrid ranking fell back to lexical:", embedErr)
		return 1
	}
	return 0
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// OpenAIEmbedder is a catalog.Embedder over an OpenAI-compatible
// embeddings endpoint: POST {BaseURL}/embeddings with {"model", "input":
// [texts]}, answered by {"data": [{"index", "embedding"}]}.
type OpenAIEmbedder struct {
	// BaseURL is the API's address up to and including /v1.
	BaseURL string
	// Model is the embedding model's name.
	Model string
	// APIKey is sent as a bearer token when set.
	APIKey string
	// Client is the HTTP client; http.DefaultClient if nil.
	Client *http.Client
}

// Embed implements catalog.Embedder.
func (e *OpenAIEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	body, err := json.Marshal(map[string]any{"model": e.Model, "input": texts})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(e.BaseURL, "/")+"/embeddings", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if e.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.APIKey)
	}
	client := e.Client
	if client == nil {
		client = &http.Client{Timeout: time.Minute}
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("embeddings endpoint answered %s: %s", resp.Status, clip(string(raw), 300))
	}
	var out struct {
		Data []embedding `json:"data"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("embeddings endpoint: reading its answer: %w", err)
	}
	slices.SortFunc(out.Data, func(a, b embedding) int { return a.Index - b.Index })
	vs := make([][]float32, len(out.Data))
	for i, d := range out.Data {
		if d.Index != i {
			return nil, fmt.Errorf("embeddings endpoint: answer has no vector for input %d", i)
		}
		vs[i] = d.Embedding
	}
	return vs, nil
}

// embedding is one vector of the endpoint's answer.
type embedding struct {
	Index     int       `json:"index"`
	Embedding []float32 `json:"embedding"`
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func readTools(path string) ([]tool.Definition, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []tool.Definition
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var t struct {
			Name        string         `json:"name"`
			Description string         `json:"description"`
			Parameters  map[string]any `json:"parameters"`
			Keywords    []string       `json:"keywords"`
		}
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		out = append(out, tool.Definition{Name: t.Name, Description: t.Description, InputSchema: t.Parameters, Keywords: t.Keywords})
	}
	return out, sc.Err()
}

// sampleTools are the tools searched without -tools: a few whose words
// differ from the words people use for them.
var sampleTools = []tool.Definition{
	{Name: "RideSharing_GetRide", Description: "Books a cab to a destination for a number of seats."},
	{Name: "Movies_FindMovies", Description: "Finds films playing at a theatre, by genre and location."},
	{Name: "get_current_weather", Description: "Returns the current conditions and temperature for a city."},
	{Name: "Flights_SearchOnewayFlight", Description: "Searches for a one-way flight between two cities."},
	{Name: "Hotels_ReserveHotel", Description: "Reserves rooms at a hotel for given dates."},
	{Name: "send_email", Description: "Sends an email to a recipient."},
	{Name: "stock_quote", Description: "Returns the latest price of a ticker symbol."},
	{Name: "Restaurants_ReserveRestaurant", Description: "Books a table at a restaurant."},
}
