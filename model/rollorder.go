package model

// RollOrder is a node group role's place in kops' order of rolls:
// bastions, then the control plane, then API servers, then nodes. A
// group's roll waits while a group earlier in it (or of the same place
// and an earlier name) still rolls. false for a role kops does not know.
// The roles are kops' names, as node groups declare them.
func RollOrder(role string) (int, bool) {
	switch role {
	case "Bastion":
		return 0, true
	case "Master", "ControlPlane":
		return 1, true
	case "APIServer":
		return 2, true
	case "Node", "":
		return 3, true
	}
	return 0, false
}
