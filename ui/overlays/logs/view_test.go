package logs

import (
	"context"
	"io"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/cluster"
	"rollscope/ui/internal/uitest"
	"rollscope/ui/screen"
)

// logSource answers every request with the same log, and keeps the
// requests.
type logSource struct{ asked []model.LogRequest }

func (l *logSource) Open(_ context.Context, r model.LogRequest) (io.ReadCloser, error) {
	l.asked = append(l.asked, r)
	return io.NopCloser(strings.NewReader("starting nginx\nlistening on :80\nerror: upstream refused\n")), nil
}

// feed hands o what cmd brings, and what that brings, until the stream has
// nothing more to say.
func feed(o screen.Overlay, cmd tea.Cmd) screen.Overlay {
	for cmd != nil {
		msgs := uitest.Run(cmd)
		cmd = nil
		for _, m := range msgs {
			var c tea.Cmd
			o, c = o.Update(m)
			cmd = tea.Batch(cmd, c)
		}
	}
	return o
}

// The view follows the pod's first container's log; / searches it, and
// esc closes it.
func TestReadsSearchesAndCloses(t *testing.T) {
	src := uitest.MidRollout()
	src.PodDetails = map[string]cluster.PodDetail{"shop/frontend-new-00001": {Namespace: "shop", Name: "frontend-new-00001",
		Containers: []cluster.ContainerDetail{{Name: "init", Init: true}, {Name: "nginx", Image: "nginx:1.28"}}}}
	s := uitest.NewScreen(src, nil)
	logs := &logSource{}
	s.Logs = logs
	v, cmd := Open(s, "shop", "frontend-new-00001")
	v.SetSize(80, 10)
	o := feed(v, cmd)
	if len(logs.asked) != 1 || logs.asked[0].Container != "nginx" || !logs.asked[0].Follow {
		t.Errorf("asked for %+v, want nginx's log, followed", logs.asked)
	}
	out := uitest.Plain(o.View())
	for _, want := range []string{"starting nginx", "listening on :80", "error: upstream refused"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	o = uitest.Answer(o, "/", "u", "p", "s", "t", "r", "e", "a", "m", "enter")
	if m := o.(*View).match; m != 2 {
		t.Errorf("search for upstream matched line %d, want 2", m)
	}
	o = uitest.Answer(o, "/", "z", "z", "enter")
	if !strings.Contains(s.Toast, `no line holds "zz"`) {
		t.Errorf("search for what is not there: toast %q", s.Toast)
	}
	if uitest.Answer(o, "esc") != nil {
		t.Error("esc did not close the logs")
	}
}

// With nothing to read logs from, the view says so.
func TestWithoutALogSource(t *testing.T) {
	s := uitest.NewScreen(uitest.MidRollout(), nil)
	v, cmd := Open(s, "shop", "frontend-new-00000")
	v.SetSize(80, 6)
	if cmd != nil || !strings.Contains(uitest.Plain(v.View()), "no cluster to read logs from") {
		t.Errorf("no log source:\n%s", uitest.Plain(v.View()))
	}
}
