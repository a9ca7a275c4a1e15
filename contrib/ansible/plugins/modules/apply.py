#!/usr/bin/python
# -*- coding: utf-8 -*-
DOCUMENTATION = r'''
module: shortstroke_apply
short_description: Create a short-stroked md array from a plan file, or undo it
description:
  - I(state=present) runs C(shortstroke apply PLAN --name NAME --yes -J
    [--mkfs FS] [--conf FILE] [--method M] [--force] [--members ...]): every
    member limited to the plan's limit, C(mdadm --create), mkfs, the ARRAY line,
    as one transaction that rolls back on failure. The plan file is on the host
    (C(shortstroke plan ... -O PLAN.json)).
  - I(state=absent) runs C(shortstroke array undo NAME --yes -J): the array
    stopped, its md metadata wiped, every member back to its journaled
    original capacity. An array shortstroke never created is already absent.
  - The journal makes both idempotent. C(changed) is the program's own
    C(changed) - false when the array is already applied (or undone).
  - Check mode runs C(--dry-run) - nothing is sent; C(changed) says whether a
    real run would change anything, and a run that would stop fails with why.
  - Protected and in-use members, and members that are not the disks the plan
    recorded, are refused as on the command line (exit 3); the task fails
    with the program's message.
options:
  name: {type: str, required: true, description: the array, /dev/md/NAME}
  plan: {type: path, description: the plan file on the host (state=present)}
  members: {type: list, elements: str, default: [], description: --members}
  mkfs: {type: str, choices: [ext4, xfs]}
  conf: {type: path, description: an mdadm.conf to append the ARRAY line to}
  method: {type: str, default: auto, choices: [auto, amac, hpa, dco, scsi-resize, scsi-format]}
  force: {type: bool, default: false}
  state: {type: str, default: present, choices: [present, absent]}
  # and the global options of module_utils/shortstroke.py: bin, rig, demo,
  # state_dir, protect_file, sysroot (the role sets them with module_defaults)
'''
RETURN = r'''
array: {description: the array record as apply -J / array undo -J print it, type: dict}
log: {description: what the run did (check mode - would do), type: str}
'''

from ansible.module_utils.shortstroke import base_cmd, run_json, shortstroke_module


def recorded(module, name):
    """The record of NAME from `array list -J`, or None."""
    _, data, _ = run_json(module, base_cmd(module) + ['array', 'list', '-J'], (0,))
    return next((a for a in data.get('arrays', []) if a.get('name') == name), None)


def main():
    module = shortstroke_module(dict(
        name=dict(type='str', required=True),
        plan=dict(type='path'),
        members=dict(type='list', elements='str', default=[]),
        mkfs=dict(type='str', choices=['ext4', 'xfs']),
        conf=dict(type='path'),
        method=dict(type='str', default='auto',
                    choices=['auto', 'amac', 'hpa', 'dco', 'scsi-resize', 'scsi-format']),
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
    module.exit_json(changed=changed, array=array, log=data.get('log'), cmd=cmd)


if __name__ == '__main__':
    main()
