package mcpbridge

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// originHeader is the header a browser sets on cross-origin and POST
// requests.
const originHeader = "Origin"

// OriginPolicy decides which Origin headers an HTTP server accepts. MCP's
// streamable HTTP transport says servers must validate Origin, so that a
// web page the user visits cannot drive a local server (DNS rebinding, a
// page posting to localhost). A request without an Origin header (a client
// that is not a browser) is always accepted.
type OriginPolicy struct {
	allowAll bool
	allowed  map[string]bool // normalised origins
}

// NewOriginPolicy returns the policy that accepts exactly the origins
// given (scheme://host[:port], compared without regard to case and with a
// default port dropped), or every origin when one of them is "*". With no
// origins it accepts loopback origins only: http or https on localhost,
// 127.0.0.0/8 or [::1], any port. An origin that is not of that form is an
// error naming it.
func NewOriginPolicy(origins ...string) (*OriginPolicy, error) {
	p := &OriginPolicy{allowed: make(map[string]bool)}
	for _, o := range origins {
		if o == "*" {
			p.allowAll = true
			continue
		}
		n, err := normaliseOrigin(o)
		if err != nil {
			return nil, err
		}
		p.allowed[n] = true
	}
	return p, nil
}

// Allows reports whether a request with this Origin header value may be
// served; the empty string (no header) is allowed.
func (p *OriginPolicy) Allows(origin string) bool {
	if origin == "" || p.allowAll {
		return true
	}
	n, err := normaliseOrigin(origin)
	if err != nil {
		return false
	}
	if len(p.allowed) == 0 {
		return loopbackOrigin(n)
	}
	return p.allowed[n]
}

// String describes the accepted origins for messages.
func (p *OriginPolicy) String() string {
	switch {
	case p.allowAll:
		return "every origin"
	case len(p.allowed) == 0:
		return "loopback origins only"
	}
	list := make([]string, 0, len(p.allowed))
	for o := range p.allowed {
		list = append(list, o)
	}
	slices.Sort(list)
	return strings.Join(list, ", ")
}

// normaliseOrigin returns scheme://host[:port] in lower case, without a
// default port, or an error saying what is wrong with o.
func normaliseOrigin(o string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(o))
	if err != nil || u.Scheme == "" || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("origin %q: want scheme://host[:port], such as https://app.example.com or http://localhost:6274", o)
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host, nil
}

// loopbackOrigin reports whether n, a normalised origin, is http or https
// on a loopback host.
func loopbackOrigin(n string) bool {
	u, err := url.Parse(n)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	host := u.Hostname()
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// guardHTTP serves h to the requests policy allows and answers the others
// 403 with a sentence naming the origin refused.
func guardHTTP(h http.Handler, policy *OriginPolicy) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get(originHeader); !policy.Allows(origin) {
			http.Error(w, fmt.Sprintf("Forbidden: origin %q may not use this MCP server (it accepts %s)", origin, policy), http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// httpLimits is what ServerOptions says about HTTP requests.
type httpLimits struct {
	origins *OriginPolicy
	maxBody int64
}

func limitsOf(o ServerOptions) httpLimits {
	l := httpLimits{origins: o.Origins, maxBody: o.MaxBodyBytes}
	if l.origins == nil {
		l.origins = &OriginPolicy{}
	}
	if l.maxBody == 0 {
		l.maxBody = DefaultMaxMessageBytes
	}
	return l
}

// apply returns opts (nil: the zero options) with the body limit set when
// opts sets none.
func (l httpLimits) apply(opts *mcp.StreamableHTTPOptions) mcp.StreamableHTTPOptions {
	var o mcp.StreamableHTTPOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxRequestBodyBytes == 0 {
		o.MaxRequestBodyBytes = l.maxBody
	}
	return o
}
