package builtin

// What a program that keeps a run's state outside the process (replicas of
// an MCP server sharing a store, cmd/toolmcp -store) needs of the state the
// builtin tools keep per run: the todo list (TodoStore), the files read
// (tool.Context's ReadFiles, read and written through its own methods),
// the tools ToolSearch activated (the catalog view's Activated and
// Activate) and the background commands (BackgroundManager), whose
// processes cannot move between processes: their IDs say which process
// runs them.

// Replace sets the whole list, as TodoWrite does: a run whose list was
// changed elsewhere (another replica) brings its own up to date.
func (s *TodoStore) Replace(todos []Todo) { s.set(todos) }

// SetIDPrefix starts the ID of every background command started from now
// with prefix, such as the name of the replica that runs it followed by a
// colon ("web-2:bash_1"), so that a call naming the ID on another replica
// can be told where the command runs. Call it before the first Start.
func (m *BackgroundManager) SetIDPrefix(prefix string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.idPrefix = prefix
}

// IDs returns the IDs of the commands the manager knows (running, or
// finished with output not yet read), in start order.
func (m *BackgroundManager) IDs() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	ids := make([]string, 0, len(m.tasks))
	for _, id := range m.order {
		if _, ok := m.tasks[id]; ok {
			ids = append(ids, id)
		}
	}
	return ids
}
