// Package faulttest holds toolgen's fault-injection and load tests: tools
// that panic, hang, return huge results or write to their context from many
// goroutines; shell commands killed from outside; Write and Edit on a full
// or read-only disk; and the soak test, which drives one executor with
// thousands of mixed calls from many goroutines and then checks for lost
// results, leaked goroutines and processes, and memory growth. It has no
// non-test code; the README's Reliability section reports the figures.
package faulttest
