#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: shortstroke contributors
# GNU General Public License v2.0 or later (see https://www.gnu.org/licenses/gpl-2.0.txt)

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
module: apply
short_description: Create a short-stroked md array from a plan file, or undo it
description:
  - With I(state=present), runs C(shortstroke apply PLAN --name NAME --yes -J), with
    C(--mkfs), C(--conf), C(--method), C(--force) and C(--members) as given. Every member
    is limited to the plan's limit, then C(mdadm --create), mkfs and the ARRAY line follow,
    as one transaction that rolls back on failure. The plan file is on the host, written by
    C(shortstroke plan ... -O PLAN.json).
  - With I(state=absent), runs C(shortstroke array undo NAME --yes -J). The array is stopped,
    its md metadata wiped, every member brought back to its journaled original capacity.
    An array shortstroke never created is already absent.
  - The journal and the array record make both idempotent. C(changed) is the program's own,
    false when the array is already applied (or undone).
  - Protected and in-use members, and members that are not the disks the plan recorded, are
    refused as on the command line (exit 3); the task fails with the program's message.
version_added: 1.0.0
author: shortstroke contributors (@shortstroke)
options:
  name:
    description: The array's name, C(/dev/md/NAME).
    type: str
    required: true
  plan:
    description: The plan file on the host. Required with I(state=present).
    type: path
  members:
    description: The member disks, in the plan's order (C(--members)); empty, the plan's own.
    type: list
    elements: str
    default: []
  mkfs:
    description: Make this file system on the array.
    type: str
    choices: [ext4, xfs]
  conf:
    description: An mdadm.conf to append the array's ARRAY line to.
    type: path
  method:
    description: How to limit the members.
    type: str
    default: auto
    choices: [auto, amac, hpa, dco, scsi-resize, scsi-format, nvme-ns, partition]
  force:
    description: Use protected and in-use members too. Destroys what is on them.
    type: bool
    default: false
  state:
    description: C(present) applies the plan; C(absent) undoes the array.
    type: str
    default: present
    choices: [present, absent]
extends_documentation_fragment:
  - shortstroke.disks.globals
attributes:
  check_mode:
    support: full
    description:
      - C(--dry-run) - nothing is sent or run; C(changed) says whether a real run would change
        anything, and a run that would stop (no md, mdadm missing) fails with why.
seealso:
  - module: shortstroke.disks.limit
'''

EXAMPLES = r'''
- name: A RAID 10 of four disks at 25 % stroke, from a plan made with shortstroke plan -O
  shortstroke.disks.apply:
    name: fast0
    plan: /etc/shortstroke/r10.json
    mkfs: xfs
    conf: /etc/mdadm/mdadm.conf

- name: The same plan on other disks of the same model
  shortstroke.disks.apply:
    name: fast1
    plan: /etc/shortstroke/r10.json
    members: [/dev/sdf, /dev/sdg, /dev/sdh, /dev/sdi]

- name: Take it apart again - members back to full size
  shortstroke.disks.apply:
    name: fast1
    state: absent
'''

RETURN = r'''
rc:
  description: The exit code of C(shortstroke apply) or C(shortstroke array undo) (0 done, 1 failed, 3 refused).
  returned: when the program ran
  type: int
  sample: 0
cmd:
  description: The command run.
  returned: when the program ran
  type: list
  elements: str
  sample: [/usr/bin/shortstroke, apply, /etc/shortstroke/r10.json, --name, fast0, --yes, -J, --method, auto]
array:
  description: The array record, as C(apply -J) and C(array undo -J) print it (name, state, level, members, md device).
  returned: always
  type: dict
  sample: {name: fast0, state: done, level: "10", md: /dev/md/fast0}
log:
  description: What the run did (in check mode, would do), one step a line.
  returned: always
  type: str
  sample: "limit /dev/sdb to 976762584 blocks (amac)\nmdadm --create /dev/md/fast0 ..."
'''

from ansible_collections.shortstroke.disks.plugins.module_utils.shortstroke import (
    base_cmd, run_json, shortstroke_module)


def recorded(module, name):
    """The record of NAME from `array list -J`, or None."""
    dummy, data, dummy2 = run_json(module, base_cmd(module) + ['array', 'list', '-J'], (0,))
    return next((a for a in data.get('arrays', []) if a.get('name') == name), None)


def main():
    module = shortstroke_module(dict(
        name=dict(type='str', required=True),
        plan=dict(type='path'),
        members=dict(type='list', elements='str', default=[]),
        mkfs=dict(type='str', choices=['ext4', 'xfs']),
        conf=dict(type='path'),
        method=dict(type='str', default='auto',
                    choices=['auto', 'amac', 'hpa', 'dco', 'scsi-resize', 'scsi-format',
                             'nvme-ns', 'partition']),
        force=dict(type='bool', default=False),
        state=dict(type='str', default='present', choices=['present', 'absent']),
    ), required_if=[('state', 'present', ('plan',))])
    p = module.params
    present = p['state'] == 'present'
    if present:
        cmd = base_cmd(module) + ['apply', p['plan'], '--name', p['name'], '--yes', '-J',
                                  '--method', p['method']]
        for key in ('mkfs', 'conf'):
            if p[key]:
                cmd += ['--' + key, p[key]]
        if p['force']:
            cmd.append('--force')
    else:
        if recorded(module, p['name']) is None:
            module.exit_json(changed=False, array=None, log='no array %s: nothing to undo'
                             % p['name'])
        cmd = base_cmd(module) + ['array', 'undo', p['name'], '--yes', '-J']
    if module.check_mode:
        cmd.append('--dry-run')
    if present and p['members']:
        cmd += ['--members'] + p['members']  # last: it takes every word after it
    rc, data, err = run_json(module, cmd, (0,))
    array = data.get('array') or {}
    if module.check_mode:
        # a dry run changes nothing; it would, unless the record is already
        # where this state wants it (the no-op re-run prints that record)
        changed = array.get('state') != ('done' if present else 'undone')
    else:
        changed = bool(data.get('changed'))
    if rc != 0 or not data.get('ok'):
        # exit 3: refused before anything was changed (apply -J says why in error)
        module.fail_json(msg='shortstroke %s %s: %s' % (
            'apply' if present else 'array undo', 'refused' if rc == 3 else 'failed',
            data.get('error') or err.strip()),
            rc=rc, changed=changed and rc != 3, array=array, log=data.get('log'), cmd=cmd)
    module.exit_json(changed=changed, array=array, log=data.get('log'), rc=rc, cmd=cmd)


if __name__ == '__main__':
    main()
