package annotations

// A Subject is the declared permission subject of a tool.
type Subject struct {
	Kind  SubjectKind
	Param string // wire name of a top-level string field
}
