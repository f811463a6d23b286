package ui

import (
	"rollscope/model/action"
	"rollscope/ui/keys"
	"rollscope/ui/screen"
)

// gateReads turns on the keys that only read (logs): they need something to
// read from, not actions to send, and --read-only leaves them on; the
// cluster may still deny them (pods/log).
func gateReads(km *KeyMap, logs screen.LogSource, denied map[action.Name]string) {
	name := string(action.Logs)
	switch {
	case logs == nil:
		km.Disable(name, keys.NoCluster)
	case denied[action.Logs] != "":
		km.Disable(name, denied[action.Logs])
	default:
		km.Enable(name)
	}
}
