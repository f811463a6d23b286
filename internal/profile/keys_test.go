package profile

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

type counter struct{ n int }

func (c counter) Init() tea.Cmd                       { return nil }
func (c counter) Update(tea.Msg) (tea.Model, tea.Cmd) { return counter{c.n + 1}, nil }
func (c counter) View() tea.View                      { return tea.NewView(strconv.Itoa(c.n)) }

// Each key is timed once, from its Update to the frame after it; other
// messages (the watch's batches) are not; the model comes back unwrapped.
func TestEachKeyIsTimedWithItsFrame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.txt")
	t.Setenv(KeysEnv, path)
	m, unwrap, stop, err := Keys(counter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range []tea.Msg{tea.KeyPressMsg{Code: 'j'}, "a batch", tea.KeyPressMsg{Code: 'k'}} {
		m, _ = m.Update(msg)
		m.View()
	}
	m.View() // a frame with no key before it
	stop()
	b, _ := os.ReadFile(path)
	if lines := strings.Fields(string(b)); len(lines) != 2 {
		t.Errorf("%d lines for two keys: %q", len(lines), b)
	}
	if c, ok := unwrap(m).(counter); !ok || c.n != 3 {
		t.Errorf("unwrapped %#v, want the counter after three messages", unwrap(m))
	}
}

// A file that cannot be made is the operator's error in one line, naming
// the variable.
func TestAKeyFileThatCannotBeMadeIsNamed(t *testing.T) {
	t.Setenv(KeysEnv, filepath.Join(t.TempDir(), "no", "such", "dir", "keys.txt"))
	if _, _, _, err := Keys(counter{}); err == nil || !strings.HasPrefix(err.Error(), KeysEnv+"=") {
		t.Errorf("err = %v", err)
	}
}
