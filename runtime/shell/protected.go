package shell

import (
	"path"
	"strings"
)

// A ProtectedPath is a place in a workspace whose contents a program runs
// later, outside any sandbox: the next git command, the next shell, the
// editor or the agent opening the folder. Nothing that runs under the agent
// may change it, so that code planted now cannot run on the host later.
type ProtectedPath struct {
	// Path is slash-separated and relative to the workspace root. A
	// trailing "/" marks a directory: the entry protects it and everything
	// under it.
	Path string

	// Reason says what runs from it, as the end of a sentence: "git runs
	// the programs it names". Refusals quote it.
	Reason string
}

// Dir reports whether the entry protects a directory and what lies under it.
func (p ProtectedPath) Dir() bool { return strings.HasSuffix(p.Path, "/") }

// MandatoryReadOnly is the one list of workspace paths that commands and
// file tools may read but never change. The [Sandbox] binds each of them
// read-only over Root; the builtin Write and Edit tools refuse them (unless
// an allow-list entry names the path itself). It is the list of paths that
// other agent sandboxes call mandatory: each runs code on the host when a
// person or a tool next uses the workspace. Git itself keeps working: a
// commit, a branch or a stash writes elsewhere under .git/.
var MandatoryReadOnly = []ProtectedPath{
	// core.fsmonitor, core.hooksPath, core.sshCommand, core.pager,
	// diff and filter drivers and "!" aliases name programs that the next
	// git command on the host runs.
	{".git/config", "git runs the programs it names (core.fsmonitor, core.hooksPath, filter and diff drivers, aliases)"},
	// Hooks are programs git runs on commit, checkout, merge and push.
	{".git/hooks/", "git runs its hooks on commit, checkout, merge and push"},
	// With extensions.worktreeConfig git reads this after .git/config.
	{".git/config.worktree", "git reads it as config and runs the programs it names"},
	// commondir names the directory git reads config and hooks from
	// instead of this one.
	{".git/commondir", "git reads its config and hooks from the directory it names"},
	// Each submodule's and each linked worktree's git directory has a
	// config, hooks and redirections of its own; git status recurses into
	// submodules.
	{".git/modules/", "git reads each submodule's config and runs its hooks (git status recurses into submodules)"},
	{".git/worktrees/", "git reads each linked worktree's config and redirections (commondir, gitdir)"},
	// A submodule's update = !command runs on git submodule update, and its
	// URL decides what is fetched.
	{".gitmodules", "git submodule update runs its update commands and fetches its URLs"},
	// Shell start-up files: a login or interactive shell whose home is the
	// workspace sources them.
	{".bashrc", "bash sources it at start"},
	{".bash_profile", "bash sources it at login"},
	{".profile", "login shells source it"},
	{".zshrc", "zsh sources it at start"},
	{".zprofile", "zsh sources it at login"},
	// direnv evaluates .envrc when a shell enters the directory.
	{".envrc", "direnv runs it when a shell enters the directory"},
	// Editor settings: tasks, launch configurations and terminal profiles
	// run when the folder is opened.
	{".vscode/", "the editor runs its tasks and settings when the folder is opened"},
	{".idea/", "the IDE runs its run configurations and startup tasks"},
	// Agent settings: MCP servers an agent starts, hooks it runs.
	{".mcp.json", "an agent starts the MCP servers it names"},
	{".claude/", "an agent runs the hooks and commands its settings name"},
}

// ProtectedBy returns the entry of [MandatoryReadOnly] that protects rel, a
// slash-separated path relative to the workspace root, and whether there is
// one. The path is cleaned first; an entry protects its path in the
// workspace root, and a directory entry everything under it too. A path
// that leaves the root ("..") is not in the workspace and is not protected
// here.
func ProtectedBy(rel string) (ProtectedPath, bool) {
	rel = path.Clean(strings.TrimPrefix(rel, "/"))
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return ProtectedPath{}, false
	}
	for _, p := range MandatoryReadOnly {
		if p.Dir() {
			dir := strings.TrimSuffix(p.Path, "/")
			if rel == dir || strings.HasPrefix(rel, dir+"/") {
				return p, true
			}
			continue
		}
		if rel == p.Path {
			return p, true
		}
	}
	return ProtectedPath{}, false
}
