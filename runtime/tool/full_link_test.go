package tool

// The executor's tests hold schemas to the whole standard: they link the
// complete validation as a program does, by import (TestIncompleteSchema
// runs a program that does not).
import _ "github.com/toolgen/toolgen/runtime/schema/full"
