package schema

// The tests hold schemas to the whole standard: they link the complete
// validation as a program does, by import. TestIncomplete unlinks it.
import _ "github.com/toolgen/toolgen/runtime/schema/full"
