package pods

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"rollscope/model/action"
	"rollscope/ui/overlays/logs"
	"rollscope/ui/overlays/poddetail"
	"rollscope/ui/screen"
)

// open answers the keys that look into one pod: enter for its detail, l
// for its logs (the root has already said why when l is off). Other keys
// open nothing.
func open(s *screen.Screen, press tea.KeyPressMsg, namespace, pod string) tea.Cmd {
	switch {
	case key.Matches(press, s.Keys.Select):
		return OpenDetail(s, namespace, pod)
	case key.Matches(press, s.Keys.Action(action.Logs)):
		return OpenLogs(s, namespace, pod)
	}
	return nil
}

// OpenDetail is the command that opens a pod's detail view.
func OpenDetail(s *screen.Screen, namespace, pod string) tea.Cmd {
	return screen.OpenCmd(poddetail.New(s, namespace, pod), nil)
}

// OpenLogs is the command that opens a pod's logs view.
func OpenLogs(s *screen.Screen, namespace, pod string) tea.Cmd {
	v, cmd := logs.Open(s, namespace, pod)
	return screen.OpenCmd(v, cmd)
}
