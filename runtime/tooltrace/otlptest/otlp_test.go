package otlptest

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/tool"
	"github.com/toolgen/toolgen/runtime/tooltrace"
)

// TestOTLPHTTP: a tool call's span, exported over OTLP/HTTP, arrives at a
// loopback receiver with its GenAI attributes, and a refused call's span
// with its error.type and the refusal event.
func TestOTLPHTTP(t *testing.T) {
	var mu sync.Mutex
	var got []*coltrace.ExportTraceServiceRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil || r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		var req coltrace.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		got = append(got, &req)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
		out, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
		w.Write(out)
	}))
	defer srv.Close()

	ctx := context.Background()
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(srv.URL+"/v1/traces"))
	if err != nil {
		t.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	reg := tool.NewRegistry()
	for _, name := range []string{"Echo", "Secret"} {
		if err := reg.Register(tool.New(tool.Definition{Name: name, InputSchema: map[string]any{"type": "object"}},
			func(context.Context, tool.Input, tool.Context) tool.Result { return tool.Success("ok") })); err != nil {
			t.Fatal(err)
		}
	}
	list, err := permission.Parse("Echo")
	if err != nil {
		t.Fatal(err)
	}
	exec := tool.NewExecutor(reg, tool.WithAllowList(list), tool.WithMiddleware(tooltrace.Middleware(tooltrace.WithTracerProvider(tp))))
	exec.Execute(ctx, tool.Call{ID: "c1", Name: "Echo"}, tool.NewContext())
	exec.Execute(ctx, tool.Call{ID: "c2", Name: "Secret"}, tool.NewContext())
	if err := tp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}

	type span struct {
		name   string
		attrs  map[string]string
		events []string
	}
	var spans []span
	mu.Lock()
	for _, req := range got {
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					sp := span{name: s.Name, attrs: map[string]string{}}
					for _, a := range s.Attributes {
						sp.attrs[a.Key] = a.Value.GetStringValue()
					}
					for _, e := range s.Events {
						sp.events = append(sp.events, e.Name)
					}
					spans = append(spans, sp)
				}
			}
		}
	}
	mu.Unlock()
	if len(spans) != 2 {
		t.Fatalf("the receiver got %d spans, want 2: %+v", len(spans), spans)
	}
	if s := spans[0]; s.name != "execute_tool Echo" || s.attrs["gen_ai.operation.name"] != "execute_tool" || s.attrs["gen_ai.tool.call.id"] != "c1" || s.attrs["error.type"] != "" {
		t.Errorf("first span: %+v", s)
	}
	if s := spans[1]; s.name != "execute_tool Secret" || s.attrs["error.type"] != "permission_denied" || len(s.events) != 1 || s.events[0] != "tool call refused" {
		t.Errorf("second span: %+v", s)
	}
}
