package noderoll

import (
	"fmt"
	"sort"

	"rollscope/engine/nodegroup"
)

// rank is a role's place in kops' order: bastions, then the control plane,
// then API servers, then nodes.
func rank(role string) (int, error) {
	switch role {
	case nodegroup.RoleBastion:
		return 0, nil
	case nodegroup.RoleMaster, nodegroup.RoleControlPlane:
		return 1, nil
	case nodegroup.RoleAPIServer:
		return 2, nil
	case nodegroup.RoleNode, "":
		return 3, nil
	}
	return 0, fmt.Errorf("unknown group type for group %q: role %q (use Bastion, Master, ControlPlane, APIServer or Node)", role, role)
}

// Order sorts groups (name → role) into kops' rolling order: by role, then
// by name. A role kops does not know is an error, and nothing is ordered.
func Order(groups map[string]string) ([]string, error) {
	type g struct {
		name string
		rank int
	}
	list := make([]g, 0, len(groups))
	for name, role := range groups {
		r, err := rank(role)
		if err != nil {
			return nil, fmt.Errorf("unknown group type for group %q: role %q (use Bastion, Master, ControlPlane, APIServer or Node)", name, role)
		}
		list = append(list, g{name, r})
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].rank != list[j].rank {
			return list[i].rank < list[j].rank
		}
		return list[i].name < list[j].name
	})
	names := make([]string, len(list))
	for i, x := range list {
		names[i] = x.name
	}
	return names, nil
}
