#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: shortstroke contributors
# GNU General Public License v2.0 or later (see https://www.gnu.org/licenses/gpl-2.0.txt)

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
module: limit
short_description: Short-stroke disks with shortstroke limit
description:
  - Runs C(shortstroke limit -J --yes) on the named disks, limiting each to its fast outer
    zones. Before any change the disk's original state is journaled on the host, so a
    re-run is idempotent (C(changed) is false when every disk already has the limit) and
    C(shortstroke restore) can undo it.
  - Protected and in-use disks are refused by shortstroke exactly as on the command line,
    and the task fails with the refusal (exit 3), naming the disk and why, unless I(force).
  - Every named disk is checked before any is changed.
version_added: 1.0.0
author: shortstroke contributors (@shortstroke)
options:
  disks:
    description: The disks, as C(/dev/sdX), C(/dev/disk/by-id/...) or C(sim:ID) (a rig's drive).
    type: list
    elements: str
    required: true
  size:
    description: The size to limit to, as C(44GB), C(41GiB) or C(10%). One of I(size), I(percent), I(blocks).
    type: str
  percent:
    description: The share of the native capacity to keep, in percent.
    type: float
  blocks:
    description: The number of logical blocks to keep.
    type: int
  method:
    description: How to limit (C(auto) picks AMAC, else HPA, else a SCSI resize).
    type: str
    default: auto
    choices: [auto, amac, hpa, dco, scsi-resize, scsi-format, nvme-ns, partition]
  align:
    description: Round the limit down to a multiple of this size (C(1MiB)).
    type: str
  volatile:
    description: Set a volatile HPA limit that a power cycle undoes (C(shortstroke reapply) puts it back).
    type: bool
    default: false
  force:
    description: Change protected and in-use disks too. Destroys what is on them.
    type: bool
    default: false
extends_documentation_fragment:
  - shortstroke.disks.globals
attributes:
  check_mode:
    support: full
    description: C(--dry-run) - nothing is sent to a disk; C(changed) says whether one would change.
notes:
  - Check mode runs C(shortstroke limit --dry-run), which reads the disks and sends no change.
seealso:
  - module: shortstroke.disks.apply
'''

EXAMPLES = r'''
- name: Limit two disks to their outer 20 %
  shortstroke.disks.limit:
    disks: [/dev/sdb, /dev/sdc]
    percent: 20

- name: A volatile trial limit of 100 GB, rounded to MiB
  shortstroke.disks.limit:
    disks: [/dev/disk/by-id/ata-WDC_WD20EFRX-68EUZN0_WD-WCC4M1234567]
    size: 100GB
    align: 1MiB
    volatile: true

- name: Rehearse on simulated drives
  shortstroke.disks.limit:
    rig: /etc/shortstroke/rehearsal-rig.json
    state_dir: /var/tmp/shortstroke-rehearsal
    disks: [sim:b]
    blocks: 4194304
'''

RETURN = r'''
rc:
  description: The exit code of C(shortstroke limit) (0 done, 1 failed, 3 refused, 4 some failed).
  returned: always
  type: int
  sample: 0
cmd:
  description: The command run.
  returned: always
  type: list
  elements: str
  sample: [/usr/bin/shortstroke, limit, -J, --yes, --method, auto, --percent, "20.0", /dev/sdb]
results:
  description: One object per disk, as C(shortstroke limit -J) prints it (device, ok, changed, before_blocks, after_blocks, method, error).
  returned: always
  type: list
  elements: dict
  sample: [{device: /dev/sdb, ok: true, changed: true, before_blocks: 3907029168, after_blocks: 781405833, method: amac}]
changed_disks:
  description: The disks that changed (in check mode, would change).
  returned: always
  type: list
  elements: str
  sample: [/dev/sdb]
'''

from ansible_collections.shortstroke.disks.plugins.module_utils.shortstroke import (
    base_cmd, run_json, shortstroke_module)


def main():
    args = dict(
        disks=dict(type='list', elements='str', required=True),
        size=dict(type='str'),
        percent=dict(type='float'),
        blocks=dict(type='int'),
        method=dict(type='str', default='auto',
                    choices=['auto', 'amac', 'hpa', 'dco', 'scsi-resize', 'scsi-format',
                             'nvme-ns', 'partition']),
        align=dict(type='str'),
        volatile=dict(type='bool', default=False),
        force=dict(type='bool', default=False),
    )
    module = shortstroke_module(args, required_one_of=[('size', 'percent', 'blocks')],
                                mutually_exclusive=[('size', 'percent', 'blocks')])
    p = module.params
    cmd = base_cmd(module) + ['limit', '-J', '--yes', '--method', p['method']]
    if p['size'] is not None:
        cmd += ['--size', p['size']]
    elif p['percent'] is not None:
        cmd += ['--percent', str(p['percent'])]
    else:
        cmd += ['--blocks', str(p['blocks'])]
    if p['align']:
        cmd += ['--align', p['align']]
    if p['volatile']:
        cmd.append('--volatile')
    if p['force']:
        cmd.append('--force')
    if module.check_mode:
        cmd.append('--dry-run')
    cmd += p['disks']
    rc, data, err = run_json(module, cmd, (0,))
    results = data.get('results', [])
    if module.check_mode:
        changed = [r['device'] for r in results
                   if r.get('ok') and r.get('before_blocks') != r.get('after_blocks')]
    else:
        changed = [r['device'] for r in results if r.get('changed')]
    failed = [r for r in results if not r.get('ok')]
    if rc != 0 or failed:
        what = 'refused' if rc == 3 else 'failed'
        module.fail_json(msg='shortstroke limit %s: %s' % (
            what, '; '.join(r.get('error') or r['device'] for r in failed) or err.strip()),
            rc=rc, results=results, changed=bool(changed), changed_disks=changed, cmd=cmd)
    module.exit_json(changed=bool(changed), changed_disks=changed, results=results, rc=rc,
                     cmd=cmd)


if __name__ == '__main__':
    main()
