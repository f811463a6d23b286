package noderoll

import (
	"fmt"

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
