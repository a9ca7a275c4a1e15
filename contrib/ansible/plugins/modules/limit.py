#!/usr/bin/python
# -*- coding: utf-8 -*-
DOCUMENTATION = r'''
module: shortstroke_limit
short_description: Short-stroke disks with shortstroke limit
description:
  - Runs C(shortstroke limit -J --yes) on the named disks. The journal makes a
    re-run idempotent (C(changed) is false when every disk already has the limit).
  - Check mode runs C(--dry-run): nothing is sent; C(changed) says whether a disk
    would change.
  - Protected and in-use disks are refused by shortstroke as on the command line;
    the task fails with the refusal (exit 3) unless I(force) is given.
options:
  disks: {type: list, elements: str, required: true, description: devices (/dev/sdX, by-id, sim:ID)}
  size: {type: str, description: "44GB, 41GiB, 10% (one of size, percent, blocks)"}
  percent: {type: float}
  blocks: {type: int}
  method: {type: str, default: auto, choices: [auto, amac, hpa, dco, scsi-resize, scsi-format, partition]}
  align: {type: str}
  volatile: {type: bool, default: false}
  force: {type: bool, default: false}
  # and the global options of module_utils/shortstroke.py: bin, rig, demo,
  # state_dir, protect_file, sysroot (the role sets them with module_defaults)
'''
RETURN = r'''
results: {description: one object per disk, as shortstroke limit -J prints it, type: list}
changed_disks: {description: the disks that changed (check mode - would change), type: list}
'''

from ansible.module_utils.shortstroke import base_cmd, run_json, shortstroke_module


def main():
    args = dict(
        disks=dict(type='list', elements='str', required=True),
        size=dict(type='str'),
        percent=dict(type='float'),
        blocks=dict(type='int'),
        method=dict(type='str', default='auto',
                    choices=['auto', 'amac', 'hpa', 'dco', 'scsi-resize', 'scsi-format',
                             'partition']),
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
    module.exit_json(changed=bool(changed), changed_disks=changed, results=results, exit_code=rc,
                     cmd=cmd)


if __name__ == '__main__':
    main()
