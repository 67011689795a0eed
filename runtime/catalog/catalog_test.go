package catalog_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/tool"
)

func noop(context.Context, tool.Input, tool.Context) tool.Result { return tool.Success("ok") }

func mk(name, desc string, params ...string) tool.Tool {
	props := map[string]any{}
	for i := 0; i+1 < len(params); i += 2 {
		props[params[i]] = map[string]any{"type": "string", "description": params[i+1]}
	}
	return tool.New(tool.Definition{
		Name: name, Description: desc,
		InputSchema: map[string]any{"type": "object", "properties": props},
	}, noop)
}

func deferred(name, desc string, params ...string) tool.Tool {
	d := mk(name, desc, params...).Definition()
	d.Loading = tool.Deferred
	return tool.New(d, noop)
}

// fixture is a small catalog: two eager tools and deferred ones.
func fixture(t testing.TB, opts ...catalog.Option) *catalog.Catalog {
	t.Helper()
	c := catalog.New(opts...)
	for _, tt := range []tool.Tool{
		mk("Read", "Reads a file from the local filesystem.", "file_path", "The absolute path of the file."),
		deferred("slack_send_message", "Sends a message to a Slack channel.", "channel", "The channel name.", "text", "The message."),
		deferred("SlackListChannels", "Lists the channels of a Slack workspace."),
		deferred("send_email", "Sends an email to a recipient.", "to", "The address.", "body", "The message body."),
		deferred("get_weather", "Returns the current weather for a city.", "city", "The city name."),
		mk("Edit", "Edits a file by replacing text."),
		deferred("weather_forecast", "Returns the weather forecast for the coming days.", "city", "The city.", "days", "How many days."),
		deferred("stock_price", "Returns the latest price of a stock ticker."),
	} {
		if err := c.Register(tt); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func names(ms []catalog.Match) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.Name)
	}
	return out
}

func toolNames(ts []tool.Tool) []string {
	out := []string{}
	for _, t := range ts {
		out = append(out, t.Definition().Name)
	}
	return out
}

func TestRegister(t *testing.T) {
	c := catalog.New()
	if err := c.Register(mk("Eager", "x")); err != nil {
		t.Fatal(err)
	}
	if err := c.Register(deferred("Declared", "x")); err != nil {
		t.Fatal(err)
	}
	if err := c.RegisterAs(mk("Overridden", "x"), tool.Deferred); err != nil {
		t.Fatal(err)
	}
	if err := c.RegisterAs(deferred("Forced", "x"), tool.Eager); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]tool.Loading{
		"Eager": tool.Eager, "Declared": tool.Deferred, "Overridden": tool.Deferred,
		"Forced": tool.Eager, "functions.Declared": tool.Deferred,
	} {
		got, ok := c.Loading(name)
		if !ok || got != want {
			t.Errorf("Loading(%q) = %v, %v; want %v", name, got, ok, want)
		}
	}
	if diff := cmp.Diff([]string{"Eager", "Declared", "Overridden", "Forced"}, c.Names()); diff != "" {
		t.Errorf("Names (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Eager", "Forced"}, toolNames(c.Eager())); diff != "" {
		t.Errorf("Eager (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Declared", "Overridden"}, toolNames(c.Deferred())); diff != "" {
		t.Errorf("Deferred (-want +got):\n%s", diff)
	}

	errTests := []struct {
		name string
		t    tool.Tool
		l    tool.Loading
		dup  bool
	}{
		{"nil", nil, tool.Eager, false},
		{"empty name", mk("", "x"), tool.Eager, false},
		{"whitespace", mk("a b", "x"), tool.Eager, false},
		{"functions prefix", mk("functions.X", "x"), tool.Eager, false},
		{"bad loading", mk("Y", "x"), tool.Loading(7), false},
		{"duplicate", mk("Eager", "again"), tool.Eager, true},
		{"duplicate as deferred", mk("Declared", "again"), tool.Deferred, true},
	}
	for _, tt := range errTests {
		err := c.RegisterAs(tt.t, tt.l)
		if err == nil {
			t.Errorf("%s: RegisterAs succeeded, want an error", tt.name)
			continue
		}
		if got := errors.Is(err, catalog.ErrDuplicate) && errors.Is(err, tool.ErrDuplicate); got != tt.dup {
			t.Errorf("%s: errors.Is(%v, ErrDuplicate) = %v, want %v", tt.name, err, got, tt.dup)
		}
	}
	if err := c.Register(nil); err == nil {
		t.Error("Register(nil) succeeded")
	}
	if c.Len() != 4 {
		t.Errorf("Len = %d after failed registrations, want 4", c.Len())
	}
}

func TestFindUnregisterClear(t *testing.T) {
	c := fixture(t)
	for _, n := range []string{"Read", "functions.Read", "get_weather", "functions.get_weather"} {
		if _, ok := c.Find(n); !ok {
			t.Errorf("Find(%q) found nothing", n)
		}
	}
	for _, n := range []string{"read", "functions.functions.Read", " Read", "missing"} {
		if _, ok := c.Find(n); ok {
			t.Errorf("Find(%q) found a tool", n)
		}
	}
	if !c.Unregister("functions.get_weather") || c.Unregister("get_weather") {
		t.Error("Unregister: want true then false")
	}
	if got := names(c.Search("weather", 5)); !cmp.Equal(got, []string{"weather_forecast"}) {
		t.Errorf("after Unregister, Search = %v", got)
	}
	// The name is free again.
	if err := c.Register(deferred("get_weather", "Weather again.")); err != nil {
		t.Fatal(err)
	}
	c.Clear()
	if c.Len() != 0 || len(c.All()) != 0 || len(c.Search("weather", 5)) != 0 {
		t.Errorf("after Clear: Len %d, All %d", c.Len(), len(c.All()))
	}
	if err := c.Register(mk("Read", "again")); err != nil {
		t.Errorf("Register after Clear: %v", err)
	}
}

func TestParseQuery(t *testing.T) {
	tests := []struct {
		in   string
		want catalog.Query
	}{
		{"read file", catalog.Query{Kind: catalog.KeywordQuery, Text: "read file"}},
		{"  Read \t  FILE\n", catalog.Query{Kind: catalog.KeywordQuery, Text: "Read FILE"}},
		{"", catalog.Query{}},
		{"   ", catalog.Query{}},
		{"select:Read,Edit", catalog.Query{Kind: catalog.SelectQuery, Names: []string{"Read", "Edit"}}},
		{"SELECT: Read , ,Edit,,Read, functions.Edit ", catalog.Query{Kind: catalog.SelectQuery, Names: []string{"Read", "Edit"}}},
		{"select:read Read", catalog.Query{Kind: catalog.SelectQuery, Names: []string{"read", "Read"}}},
		{"select:", catalog.Query{Kind: catalog.SelectQuery}},
		{"select:,,,", catalog.Query{Kind: catalog.SelectQuery}},
		{"selection of tools", catalog.Query{Kind: catalog.KeywordQuery, Text: "selection of tools"}},
		{"+slack send", catalog.Query{Kind: catalog.RequiredQuery, Required: "slack", Text: "send"}},
		{"+Slack   send  a   message", catalog.Query{Kind: catalog.RequiredQuery, Required: "slack", Text: "send a message"}},
		{"+slack", catalog.Query{Kind: catalog.RequiredQuery, Required: "slack"}},
		{"+slack\tsend", catalog.Query{Kind: catalog.RequiredQuery, Required: "slack", Text: "send"}},
		{"+", catalog.Query{Kind: catalog.KeywordQuery}},
		{"+ send", catalog.Query{Kind: catalog.KeywordQuery, Text: "send"}},
		{"  +slack send", catalog.Query{Kind: catalog.RequiredQuery, Required: "slack", Text: "send"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, catalog.ParseQuery(tt.in)); diff != "" {
			t.Errorf("ParseQuery(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
	var many []string
	for i := range 3 * catalog.MaxSelectNames {
		many = append(many, fmt.Sprintf("T%d", i))
	}
	if got := len(catalog.ParseQuery("select:" + strings.Join(many, ",")).Names); got != catalog.MaxSelectNames {
		t.Errorf("select with %d names keeps %d, want %d", len(many), got, catalog.MaxSelectNames)
	}
}

func TestSearch(t *testing.T) {
	for _, s := range []catalog.Strategy{catalog.BM25(), catalog.Keyword()} {
		c := fixture(t, catalog.WithStrategy(s))
		tests := []struct {
			query string
			max   int
			want  []string
		}{
			// Keywords: deferred tools only, best first.
			{"weather forecast", 5, []string{"weather_forecast", "get_weather"}},
			{"WEATHER   Forecast", 5, []string{"weather_forecast", "get_weather"}},
			{"weather", 1, []string{"get_weather"}}, // a tie goes to the first registered
			{"file", 5, []string{}},                 // only eager tools mention files
			{"zebra", 5, []string{}},
			{"", 5, []string{}},
			{"  \t ", 5, []string{}},
			{"weather", 0, []string{}},
			{"weather", -3, []string{}},
			// Select: exact names, deferred only, in order, missing skipped.
			{"select:stock_price,get_weather", 5, []string{"stock_price", "get_weather"}},
			{"select:Read,nope,get_weather,get_weather", 5, []string{"get_weather"}},
			{"select:functions.stock_price", 5, []string{"stock_price"}},
			{"select:STOCK_PRICE", 5, []string{}},
			{"select:stock_price,get_weather", 1, []string{"stock_price"}},
			{"select:", 5, []string{}},
			// Required: the name must contain the word.
			{"+slack send", 5, []string{"slack_send_message", "SlackListChannels"}},
			{"+slack channels", 5, []string{"SlackListChannels", "slack_send_message"}},
			{"+SLACK", 5, []string{"slack_send_message", "SlackListChannels"}},
			{"+send", 5, []string{"send_email", "slack_send_message"}},
			{"+slack send", 1, []string{"slack_send_message"}},
			{"+nothing at all", 5, []string{}},
			{"+read file", 5, []string{}}, // Read is eager
		}
		for _, tt := range tests {
			got := names(c.Search(tt.query, tt.max))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s: Search(%q, %d) (-want +got):\n%s", s.Name(), tt.query, tt.max, diff)
			}
		}
		if got := names(c.Search("weather forecast", 5, catalog.Filter(func(n string) bool { return n != "weather_forecast" }))); !cmp.Equal(got, []string{"get_weather"}) {
			t.Errorf("%s: filtered search = %v", s.Name(), got)
		}
		if got := names(c.Search("select:stock_price,get_weather", 5, catalog.Filter(func(n string) bool { return n != "stock_price" }))); !cmp.Equal(got, []string{"get_weather"}) {
			t.Errorf("%s: filtered select = %v", s.Name(), got)
		}
	}
}

func TestSelect(t *testing.T) {
	c := fixture(t)
	got := names(c.Select("stock_price", "Read", "functions.get_weather", "stock_price", "missing"))
	if diff := cmp.Diff([]string{"stock_price", "get_weather"}, got); diff != "" {
		t.Errorf("Select (-want +got):\n%s", diff)
	}
}

func TestKeywordScores(t *testing.T) {
	c := catalog.New(catalog.WithStrategy(catalog.Keyword()))
	for _, tt := range []tool.Tool{
		deferred("send-message", "Send a message now.", "channel_name", "Where to send."),
		deferred("other", "Nothing relevant.", "message", "x"),
	} {
		if err := c.Register(tt); err != nil {
			t.Fatal(err)
		}
	}
	// Query words {send, message, channel}: send-message has send and message
	// in its name (2/3), send and message in its description (2/3), send and
	// channel in its parameters (2/3): 0.5·2/3 + 0.35·2/3 + 0.15·2/3.
	// other has message in its parameters only: 0.15·1/3.
	got := c.Search("Send message CHANNEL send", 5)
	want := []catalog.Match{
		{Name: "send-message", Score: (0.5 + 0.35 + 0.15) * 2 / 3},
		{Name: "other", Score: 0.15 / 3},
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }),
		cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Tool" }, cmp.Ignore())); diff != "" {
		t.Errorf("scores (-want +got):\n%s", diff)
	}
}

func TestBM25Ranking(t *testing.T) {
	c := catalog.New()
	for _, tt := range []tool.Tool{
		deferred("archive_logs", "Compresses old files into an archive.", "path", "Where the logs are."),
		deferred("runJarAgent", "Runs a Java agent."),
		deferred("fetch_invoice", "Looks up a document by its number.", "invoice_id", "The invoice to fetch."),
		deferred("list_files", "Lists the entries of a directory."),
		deferred("HTTPServerStart", "Starts a web listener."),
	} {
		if err := c.Register(tt); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		query string
		first string
	}{
		{"jar agent", "runJarAgent"},       // camelCase in the name
		{"http server", "HTTPServerStart"}, // acronyms
		{"file", "list_files"},             // a stem match in the name beats one in a description
		{"listing files", "list_files"},
		{"invoice", "fetch_invoice"}, // parameters are indexed
		{"logs", "archive_logs"},
	}
	for _, tt := range tests {
		ms := c.Search(tt.query, 5)
		if len(ms) == 0 || ms[0].Name != tt.first {
			t.Errorf("Search(%q) = %v, want %s first", tt.query, names(ms), tt.first)
		}
	}
	// The index is incremental: a tool registered later is found at once,
	// and one unregistered is gone.
	if err := c.Register(deferred("jar_builder", "Builds a jar.")); err != nil {
		t.Fatal(err)
	}
	if got := names(c.Search("jar", 5)); !cmp.Equal(got, []string{"jar_builder", "runJarAgent"}) {
		t.Errorf("after Register, Search(jar) = %v", got)
	}
	c.Unregister("runJarAgent")
	if got := names(c.Search("jar agent", 5)); !cmp.Equal(got, []string{"jar_builder"}) {
		t.Errorf("after Unregister, Search = %v", got)
	}
}

func TestSearchIsPure(t *testing.T) {
	c := fixture(t)
	v := c.NewRun()
	v.Search("weather", 5)
	v.Search("select:stock_price", 5)
	c.Search("+slack", 5)
	if got := v.Activated(); len(got) != 0 {
		t.Errorf("Search activated %v", got)
	}
	if diff := cmp.Diff([]string{"Read", "Edit"}, toolNames(v.All())); diff != "" {
		t.Errorf("All (-want +got):\n%s", diff)
	}
}

func TestView(t *testing.T) {
	c := fixture(t)
	var _ tool.ToolSource = c.NewRun()
	v := c.NewRun()
	if diff := cmp.Diff([]string{"Read", "Edit"}, toolNames(v.All())); diff != "" {
		t.Errorf("fresh view All (-want +got):\n%s", diff)
	}
	// Find reaches every tool, activated or not.
	for _, n := range []string{"Read", "stock_price", "functions.stock_price"} {
		if _, ok := v.Find(n); !ok {
			t.Errorf("view Find(%q) found nothing", n)
		}
	}
	got := names(v.SearchAndActivate("weather forecast", 5))
	if diff := cmp.Diff([]string{"weather_forecast", "get_weather"}, got); diff != "" {
		t.Errorf("SearchAndActivate (-want +got):\n%s", diff)
	}
	if got := v.Activate("functions.stock_price", "Read", "missing", "stock_price"); !cmp.Equal(got, []string{"stock_price"}) {
		t.Errorf("Activate = %v", got)
	}
	// Registration order, eager and activated mixed.
	want := []string{"Read", "get_weather", "Edit", "weather_forecast", "stock_price"}
	if diff := cmp.Diff(want, toolNames(v.All())); diff != "" {
		t.Errorf("All (-want +got):\n%s", diff)
	}
	if !v.IsActive("functions.get_weather") || v.IsActive("Read") {
		t.Error("IsActive wrong")
	}
	// All is re-read: a catalog change shows at once.
	c.Unregister("get_weather")
	if err := c.Register(mk("Write", "Writes a file.")); err != nil {
		t.Fatal(err)
	}
	want = []string{"Read", "Edit", "weather_forecast", "stock_price", "Write"}
	if diff := cmp.Diff(want, toolNames(v.All())); diff != "" {
		t.Errorf("All after catalog change (-want +got):\n%s", diff)
	}
	// Activation grants nothing to a tool registered again as eager: it is
	// simply eager.
	if err := c.Register(mk("get_weather", "Now eager.")); err != nil {
		t.Fatal(err)
	}
	if got := toolNames(v.All()); got[len(got)-1] != "get_weather" || len(got) != 6 {
		t.Errorf("All = %v", got)
	}
}

func TestViewRefusals(t *testing.T) {
	c := fixture(t)
	v := c.NewRun()
	for name, err := range map[string]error{
		"Register":   v.Register(mk("New", "x")),
		"Unregister": v.Unregister("Read"),
		"Clear":      v.Clear(),
	} {
		if !errors.Is(err, catalog.ErrReadOnly) {
			t.Errorf("%s = %v, want ErrReadOnly", name, err)
		}
	}
	if c.Len() != 8 {
		t.Errorf("catalog changed through a view: Len %d", c.Len())
	}
}

func TestActivationIsolation(t *testing.T) {
	c := fixture(t)
	a, b := c.NewRun(), c.NewRun()
	a.Activate("stock_price")
	b.Activate("get_weather")
	if diff := cmp.Diff([]string{"stock_price"}, a.Activated()); diff != "" {
		t.Errorf("a (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"get_weather"}, b.Activated()); diff != "" {
		t.Errorf("b (-want +got):\n%s", diff)
	}
	// A fork inherits nothing, and its activations stay its own.
	f := a.Fork()
	if got := f.Activated(); len(got) != 0 {
		t.Errorf("fork inherited %v", got)
	}
	if diff := cmp.Diff([]string{"Read", "Edit"}, toolNames(f.All())); diff != "" {
		t.Errorf("fork All (-want +got):\n%s", diff)
	}
	f.Activate("send_email")
	if a.IsActive("send_email") || !f.IsActive("send_email") || f.IsActive("stock_price") {
		t.Error("activation leaked between parent and fork")
	}
	if f.Catalog() != c {
		t.Error("fork sees another catalog")
	}
}

func TestRestrict(t *testing.T) {
	c := fixture(t)
	noSlack := func(n string) bool { return !strings.Contains(strings.ToLower(n), "slack") }
	v := c.NewRun(catalog.Restrict(noSlack))
	if got := names(v.Search("+slack", 5)); len(got) != 0 {
		t.Errorf("restricted search = %v", got)
	}
	if got := v.Activate("slack_send_message", "send_email"); !cmp.Equal(got, []string{"send_email"}) {
		t.Errorf("restricted Activate = %v", got)
	}
	// A fork keeps its parent's restriction and may add its own.
	f := v.Fork(catalog.Restrict(func(n string) bool { return n != "send_email" }))
	if got := names(f.Search("send", 5)); len(got) != 0 {
		t.Errorf("fork search = %v", got)
	}
	if got := names(v.Search("send", 5)); !cmp.Equal(got, []string{"send_email"}) {
		t.Errorf("parent search = %v", got)
	}
}

func TestSession(t *testing.T) {
	c := fixture(t)
	store := catalog.NewSessionStore()
	turn1 := c.NewRun(catalog.InSession(store, "alice"))
	turn1.Activate("stock_price")
	turn2 := c.NewRun(catalog.InSession(store, "alice"))
	if !turn2.IsActive("stock_price") {
		t.Error("session activation did not survive the turn")
	}
	bob := c.NewRun(catalog.InSession(store, "bob"))
	if bob.IsActive("stock_price") {
		t.Error("sessions share activations")
	}
	if c.NewRun().IsActive("stock_price") {
		t.Error("a plain run sees a session's activations")
	}
	if turn2.Fork().IsActive("stock_price") {
		t.Error("a fork of a session view inherited its activations")
	}
	if diff := cmp.Diff([]string{"stock_price"}, store.Activated("alice")); diff != "" {
		t.Errorf("store (-want +got):\n%s", diff)
	}
	if store.Len() != 2 {
		t.Errorf("Len = %d, want 2", store.Len())
	}
	store.Forget("alice")
	if c.NewRun(catalog.InSession(store, "alice")).IsActive("stock_price") {
		t.Error("Forget kept the session")
	}
}

func TestToolSearch(t *testing.T) {
	c := fixture(t)
	if err := c.Register(tool.New(tool.Definition{Name: "no_schema", Description: "Pings <the> server & more.", Loading: tool.Deferred}, noop)); err != nil {
		t.Fatal(err)
	}
	v := c.NewRun()
	tc := tool.NewContext(catalog.ViewKey.Bind(v))

	out, err := catalog.ToolSearch(tc, "weather forecast", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got catalog.SearchResponse
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	want := catalog.SearchResponse{Functions: []catalog.Function{{
		Name:        "weather_forecast",
		Description: "Returns the weather forecast for the coming days.",
		Parameters: map[string]any{"type": "object", "properties": map[string]any{
			"city": map[string]any{"type": "string", "description": "The city."},
			"days": map[string]any{"type": "string", "description": "How many days."},
		}},
	}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ToolSearch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"weather_forecast"}, v.Activated()); diff != "" {
		t.Errorf("activated exactly what it returned (-want +got):\n%s", diff)
	}

	tests := []struct {
		name   string
		tc     tool.Context
		query  string
		max    int
		filter func(string) bool
		want   string
		err    error
	}{
		{"no match", tc, "zebra", 5, nil, `{"functions": []}`, nil},
		{"eager only", tc, "select:Read", 5, nil, `{"functions": []}`, nil},
		{"no schema", tc, "select:no_schema", 5, nil,
			`{"functions": [{"name":"no_schema","description":"Pings <the> server & more.","parameters":{"properties":{},"type":"object"}}]}`, nil},
		{"filtered", tc, "select:stock_price", 5, func(string) bool { return false }, `{"functions": []}`, nil},
		{"empty query", tc, "", 5, nil, "", catalog.ErrEmptyQuery},
		{"blank query", tc, " \t\n", 5, nil, "", catalog.ErrEmptyQuery},
		{"empty query without view", tool.Context{}, "", 5, nil, "", catalog.ErrEmptyQuery},
		{"no view", tool.Context{}, "weather", 5, nil, "", catalog.ErrNoView},
		{"nil view", tool.NewContext(catalog.ViewKey.Bind(nil)), "weather", 5, nil, "", catalog.ErrNoView},
	}
	for _, tt := range tests {
		out, err := catalog.ToolSearch(tt.tc, tt.query, tt.max, tt.filter)
		if !errors.Is(err, tt.err) || out != tt.want {
			t.Errorf("%s: ToolSearch = %q, %v; want %q, %v", tt.name, out, err, tt.want, tt.err)
		}
	}
	if catalog.ErrEmptyQuery.Error() != "Query cannot be empty" ||
		catalog.ErrNoView.Error() != "ToolSearch is not set up on this server: the call's tool context has no catalog view (the operator binds catalog.ViewKey to the run's view, as mcpbridge.Serve does)" {
		t.Error("the contract's sentences changed")
	}
	if v.IsActive("stock_price") {
		t.Error("a filtered tool was activated")
	}
}

func TestToolSearchMaxResults(t *testing.T) {
	c := catalog.New()
	for i := range 30 {
		if err := c.RegisterAs(mk(fmt.Sprintf("tool_%02d", i), "A widget tool."), tool.Deferred); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct{ max, want int }{
		{catalog.DefaultMaxResults, 5}, {0, 1}, {-4, 1}, {1, 1}, {20, 20}, {21, 20}, {1000, 20},
	} {
		v := c.NewRun()
		out, err := catalog.ToolSearch(tool.NewContext(catalog.ViewKey.Bind(v)), "widget", tt.max, nil)
		if err != nil {
			t.Fatal(err)
		}
		var r catalog.SearchResponse
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Functions) != tt.want || len(v.Activated()) != tt.want {
			t.Errorf("max_results %d: %d functions, %d activated; want %d", tt.max, len(r.Functions), len(v.Activated()), tt.want)
		}
	}
}

func TestExecutorOverView(t *testing.T) {
	c := fixture(t)
	v := c.NewRun()
	exec := tool.NewExecutor(v)
	defs := func() []string {
		var out []string
		for _, d := range exec.Definitions() {
			out = append(out, d.Name)
		}
		return out
	}
	if diff := cmp.Diff([]string{"Read", "Edit"}, defs()); diff != "" {
		t.Errorf("before search (-want +got):\n%s", diff)
	}
	tc := tool.NewContext(catalog.ViewKey.Bind(v))
	if _, err := catalog.ToolSearch(tc, "stock", 5, nil); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"Read", "Edit", "stock_price"}, defs()); diff != "" {
		t.Errorf("after search (-want +got):\n%s", diff)
	}
	// A deferred tool not yet found is still reachable by name.
	res := exec.Execute(context.Background(), tool.Call{Name: "functions.send_email", Input: tool.NewInput(nil)}, tc)
	if res.IsError || res.Content != "ok" {
		t.Errorf("call to a deferred tool: %+v", res)
	}
}

func TestConcurrent(t *testing.T) {
	for _, s := range []catalog.Strategy{catalog.BM25(), catalog.Keyword()} {
		c := fixture(t, catalog.WithStrategy(s))
		store := catalog.NewSessionStore()
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Go(func() {
				for i := range 50 {
					name := fmt.Sprintf("tool_%d_%d", w, i)
					if err := c.RegisterAs(mk(name, "A concurrent weather tool."), tool.Deferred); err != nil {
						t.Error(err)
						return
					}
					if i%3 == 0 {
						c.Unregister(name)
					}
				}
			})
			wg.Go(func() {
				v := c.NewRun(catalog.InSession(store, fmt.Sprint(w%2)))
				tc := tool.NewContext(catalog.ViewKey.Bind(v))
				for i := range 50 {
					v.Search("weather forecast", 5)
					v.SearchAndActivate("+tool concurrent", 3)
					if _, err := catalog.ToolSearch(tc, "select:get_weather,stock_price", 5, nil); err != nil {
						t.Error(err)
					}
					_ = v.All()
					_, _ = v.Find(fmt.Sprintf("tool_%d_%d", w, i))
					_ = v.Fork().All()
				}
			})
		}
		wg.Wait()
		if got, want := c.Len(), 8+8*(50-17); got != want {
			t.Errorf("%s: Len = %d, want %d", s.Name(), got, want)
		}
	}
}

func TestDocumentOf(t *testing.T) {
	d := catalog.DocumentOf(tool.Definition{
		Name: "T", Description: "D",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{
			"b": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{
				"inner": map[string]any{"description": "Nested."},
			}}},
			"a":   map[string]any{"type": "string", "description": "First."},
			"bad": "not a schema",
		}},
	})
	want := catalog.Document{Name: "T", Description: "D", Parameters: []catalog.Parameter{
		{Name: "a", Description: "First."}, {Name: "b"}, {Name: "inner", Description: "Nested."}, {Name: "bad"},
	}}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Errorf("DocumentOf (-want +got):\n%s", diff)
	}
}
