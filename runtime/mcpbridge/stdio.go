package mcpbridge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxMessageBytes bounds one message on a StdioTransport and the
// body of one HTTP request when no other bound is set.
const DefaultMaxMessageBytes = 4 << 20

// StdioTransport is an mcp.Transport of newline-delimited JSON-RPC messages
// (MCP's stdio transport) that keeps its session through a client's
// mistakes, where the SDK's own transport ends the session:
//
//   - a line that is not JSON is answered with a -32700 error and skipped;
//   - a JSON value that is not a JSON-RPC message, a batch (MCP has none
//     since 2025-06-18) or a line longer than MaxMessageBytes is answered
//     with a -32600 error and skipped;
//   - at the end of input, the requests already read are answered before
//     the session ends;
//   - a request the client cancelled (notifications/cancelled) is not
//     answered, as MCP asks; its call's context is cancelled.
//
// The zero value reads standard input and writes standard output.
type StdioTransport struct {
	// Reader and Writer carry the messages; nil means os.Stdin and
	// os.Stdout. A Reader that is an io.Closer is closed with the
	// connection.
	Reader io.Reader
	Writer io.Writer
	// MaxMessageBytes bounds one line; zero means DefaultMaxMessageBytes.
	MaxMessageBytes int
}

// Connect implements mcp.Transport. A StdioTransport serves one
// connection.
func (t *StdioTransport) Connect(context.Context) (mcp.Connection, error) {
	r, w := t.Reader, t.Writer
	if r == nil {
		r = os.Stdin
	}
	if w == nil {
		w = os.Stdout
	}
	limit := t.MaxMessageBytes
	if limit <= 0 {
		limit = DefaultMaxMessageBytes
	}
	c := &lineConn{
		r:         r,
		w:         w,
		limit:     limit,
		incoming:  make(chan jsonrpc.Message),
		eof:       make(chan struct{}),
		closed:    make(chan struct{}),
		drained:   make(chan struct{}, 1),
		pending:   make(map[jsonrpc.ID]bool),
		cancelled: make(map[jsonrpc.ID]bool),
	}
	go c.readLoop()
	return c, nil
}

// lineConn is the connection of a StdioTransport.
type lineConn struct {
	r     io.Reader
	w     io.Writer
	limit int

	incoming chan jsonrpc.Message // messages read, handed to Read
	eof      chan struct{}        // closed when the input has ended
	readErr  error                // why the input ended, set before eof is closed
	closed   chan struct{}        // closed by Close
	close    sync.Once

	writeMu sync.Mutex

	mu sync.Mutex
	// pending holds the requests handed to the SDK and not yet answered;
	// cancelled, those of them the client cancelled.
	pending   map[jsonrpc.ID]bool
	cancelled map[jsonrpc.ID]bool
	// drained receives a value when pending becomes empty.
	drained chan struct{}
}

// readLoop reads lines until the input ends or the connection is closed,
// answering the lines that are not messages itself.
func (c *lineConn) readLoop() {
	br := bufio.NewReaderSize(c.r, 64<<10)
	var err error
	for {
		var line []byte
		var tooLong bool
		line, tooLong, err = readLine(br, c.limit)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if msg := c.decode(line, tooLong); msg != nil {
				select {
				case c.incoming <- msg:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			break
		}
	}
	if errors.Is(err, io.EOF) {
		err = io.EOF
	}
	c.readErr = err
	close(c.eof)
}

// readLine reads one line without its newline, at most limit bytes of it;
// a longer line is read to its end and reported as tooLong, its bytes
// dropped.
func readLine(br *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > limit+1 { // +1: the newline
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), tooLong, err
	}
}

// decode turns one line into the message to hand to the SDK, or answers
// it with an error and returns nil.
func (c *lineConn) decode(line []byte, tooLong bool) jsonrpc.Message {
	if tooLong {
		c.writeError(nil, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("message larger than %d bytes: it was skipped", c.limit))
		return nil
	}
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		c.writeError(nil, jsonrpc.CodeParseError,
			"parse error: the line is not JSON; send one JSON-RPC message per line")
		return nil
	}
	if line[0] == '[' {
		c.writeError(nil, jsonrpc.CodeInvalidRequest,
			"invalid request: JSON-RPC batches are not supported (MCP removed them in 2025-06-18); send one message per line")
		return nil
	}
	if nullID(line) {
		// JSON-RPC 2.0 answers every request that has an id member, null
		// included; the SDK would take it for a notification and answer
		// nothing. MCP asks for a string or an integer.
		c.writeError(nil, jsonrpc.CodeInvalidRequest,
			"invalid request: the id is null; MCP requests need a string or integer id (a notification has no id member)")
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		c.writeError(requestID(line), jsonrpc.CodeInvalidRequest,
			"invalid request: not a JSON-RPC 2.0 message ("+err.Error()+")")
		return nil
	}
	if req, ok := msg.(*jsonrpc.Request); ok {
		c.mu.Lock()
		defer c.mu.Unlock()
		switch {
		case req.IsCall():
			c.pending[req.ID] = true
		case req.Method == "notifications/cancelled":
			if id, ok := cancelledID(req.Params); ok && c.pending[id] {
				c.cancelled[id] = true
			}
		}
	}
	return msg
}

// nullID reports whether line, a JSON object, has an id member whose
// value is null.
func nullID(line []byte) bool {
	if !bytes.Contains(line, []byte("null")) {
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil {
		return false
	}
	id, ok := m["id"]
	return ok && string(bytes.TrimSpace(id)) == "null"
}

// requestID returns the id of a JSON object that is not a valid message,
// as raw JSON, when it has a usable one.
func requestID(line []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(m.ID, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string, float64:
		return m.ID
	}
	return nil
}

// cancelledID reads the request id of notifications/cancelled params.
func cancelledID(params json.RawMessage) (jsonrpc.ID, bool) {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || p.RequestID == nil {
		return jsonrpc.ID{}, false
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	return id, err == nil && id.IsValid()
}

// writeError answers a line that is not a message. id is raw JSON; nil is
// written as null.
func (c *lineConn) writeError(id json.RawMessage, code int, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b := []byte(`{"jsonrpc":"2.0","id":`)
	b = append(b, id...)
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, int64(code), 10)
	b = append(b, `,"message":`...)
	msg, _ := json.Marshal(message)
	b = append(b, msg...)
	b = append(b, "}}\n"...)
	_ = c.writeLine(b)
}

func (c *lineConn) writeLine(b []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return io.ErrClosedPipe
	default:
	}
	_, err := c.w.Write(b)
	return err
}

// Read returns the next message. Once the input has ended it returns
// io.EOF, but only after every request read has been answered.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case msg := <-c.incoming:
		return msg, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case <-c.eof:
	}
	for {
		c.mu.Lock()
		n := len(c.pending)
		c.mu.Unlock()
		if n == 0 {
			return nil, c.readErr
		}
		select {
		case <-c.drained:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		}
	}
}

// Write writes msg as one line; the answer to a cancelled request is
// dropped.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok && c.answered(resp.ID) {
		return nil
	}
	msg = withErrorCode(msg)
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	return c.writeLine(append(b, '\n'))
}

// answered marks the request id as answered and reports whether its
// answer is to be dropped (the client cancelled it).
func (c *lineConn) answered(id jsonrpc.ID) (drop bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.pending[id] {
		return false
	}
	drop = c.cancelled[id]
	delete(c.pending, id)
	delete(c.cancelled, id)
	if len(c.pending) == 0 {
		select {
		case c.drained <- struct{}{}:
		default:
		}
	}
	return drop
}

// Close ends the connection; a Reader that is an io.Closer is closed.
func (c *lineConn) Close() error {
	var err error
	c.close.Do(func() {
		c.writeMu.Lock()
		close(c.closed)
		c.writeMu.Unlock()
		if rc, ok := c.r.(io.Closer); ok {
			err = rc.Close()
		}
	})
	return err
}

// SessionID implements mcp.Connection: stdio has no session id.
func (c *lineConn) SessionID() string { return "" }
