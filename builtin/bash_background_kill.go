package builtin

import (
	"fmt"
)

// Kill stops the background command id (its whole process group) and
// waits until it has ended. It refuses an unknown ID and a command that has
// already ended.
func (m *BackgroundManager) Kill(id string) (BackgroundStatus, error) {
	m.mu.Lock()
	t, ok := m.tasks[id]
	if !ok {
		err := m.unknown(id)
		m.mu.Unlock()
		return 0, err
	}
	if t.status != StatusRunning {
		st := t.statusText()
		m.mu.Unlock()
		return t.status, &bgError{fmt.Sprintf("Background command %s has already ended (%s); there is nothing to kill.", id, st)}
	}
	m.mu.Unlock()
	t.cancel(errKilled)
	<-t.done
	m.mu.Lock()
	defer m.mu.Unlock()
	return t.status, nil
}
