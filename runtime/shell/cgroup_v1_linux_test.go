package shell

import "testing"

func TestPidsV1Path(t *testing.T) {
	mounts := "30 25 0:26 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n" +
		"38 30 0:35 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n" +
		"39 30 0:36 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	tests := []struct {
		own, want string
		ok        bool
	}{
		{"8:pids:/\n4:memory:/x\n0::/\n", "/sys/fs/cgroup/pids", true},
		{"8:pids:/job/42\n", "/sys/fs/cgroup/pids/job/42", true},
		{"8:cpu,pids:/a\n", "/sys/fs/cgroup/pids/a", true},
		{"0::/\n", "", false},
		{"4:memory:/x\n", "", false},
	}
	for _, tt := range tests {
		got, err := pidsV1Path([]byte(tt.own), []byte(mounts))
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("%q: %q, %v; want %q, ok %v", tt.own, got, err, tt.want, tt.ok)
		}
	}
}

func TestMemoryV1Path(t *testing.T) {
	mounts := "30 25 0:26 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n" +
		"38 30 0:35 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n" +
		"39 30 0:36 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n" +
		"40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
	tests := []struct {
		own, want string
		ok        bool
	}{
		{"8:pids:/\n4:memory:/process_api/6f0a\n0::/\n", "/sys/fs/cgroup/memory/process_api/6f0a", true},
		{"4:memory:/\n", "/sys/fs/cgroup/memory", true},
		{"8:pids:/\n0::/\n", "", false},
		{"0::/\n", "", false},
	}
	for _, tt := range tests {
		got, err := v1Path("memory", []byte(tt.own), []byte(mounts))
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("%q: %q, %v; want %q, ok %v", tt.own, got, err, tt.want, tt.ok)
		}
	}
}
