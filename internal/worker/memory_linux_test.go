package worker

import "testing"

func TestParseMemInfo(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"MemTotal:        8040132 kB\nMemFree:          123456 kB\n", 8040132 << 10, true},
		{"MemFree:  1 kB\nMemTotal: 16384 kB\n", 16384 << 10, true},
		{"MemTotal: lots kB\n", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseMemInfo([]byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseMemInfo(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	if _, ok := TotalMemory(); !ok {
		t.Error("TotalMemory: /proc/meminfo unreadable")
	}
}
