package mcpbridge

// Foreign schemas arrive here, from a remote server's tools and from the
// tools a server is given: hold them to the whole JSON Schema standard by
// linking the complete validator (see package runtime/schema/full).
import _ "github.com/toolgen/toolgen/runtime/schema/full"
