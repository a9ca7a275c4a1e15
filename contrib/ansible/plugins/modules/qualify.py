#!/usr/bin/python
# -*- coding: utf-8 -*-
DOCUMENTATION = r'''
module: shortstroke_qualify
short_description: Qualify disks with shortstroke qualify
description:
  - Runs C(shortstroke qualify -J --report REPORT) on the named disks, or on every
    free disk of the host (as C(shortstroke list) shows them) when none are named.
    Reads only. Writes the JSON to I(json_path) and the HTML report to
    I(report_path) on the host, for ansible.builtin.fetch.
  - A disk that fails qualification does not fail this task: C(failed_disks) and
    C(reasons) say which and why, so the reports can be fetched first (the role's
    qualify tasks then fail the host).
options:
  disks: {type: list, elements: str, default: []}
  profile: {type: str, default: quick, choices: [quick, standard, full]}
  thresholds: {type: path}
  report_path: {type: path, required: true}
  json_path: {type: path, required: true}
  # and the global options of module_utils/shortstroke.py: bin, rig, demo,
  # state_dir, protect_file, sysroot (the role sets them with module_defaults)
'''
RETURN = r'''
disks: {description: "per disk: device, model, serial, verdict, reasons", type: list}
failed_disks: {description: devices that failed, type: list}
reasons: {description: "one line per failed disk: device: check: detail", type: list}
'''

import json
import os

from ansible.module_utils.shortstroke import base_cmd, failed_checks, run_json, shortstroke_module


def main():
    args = dict(
        disks=dict(type='list', elements='str', default=[]),
        profile=dict(type='str', default='quick', choices=['quick', 'standard', 'full']),
        thresholds=dict(type='path'),
        report_path=dict(type='path', required=True),
        json_path=dict(type='path', required=True),
    )
    module = shortstroke_module(args)
    p = module.params
    disks = p['disks']
    if not disks:
        _, lst, _ = run_json(module, base_cmd(module) + ['list', '-J'], (0,))
        disks = [d['device'] for d in lst.get('drives', [])
                 if str(d.get('state', '')).startswith('free')]
        if not disks:
            module.fail_json(msg='no free disk to qualify on this host')
    for path in (p['report_path'], p['json_path']):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    cmd = base_cmd(module) + ['qualify', '-J', '--profile', p['profile'],
                              '--report', p['report_path']]
    if p['thresholds']:
        cmd += ['--thresholds', p['thresholds']]
    cmd += disks
    rc, data, err = run_json(module, cmd, (0, 1, 4))
    with open(p['json_path'], 'w') as f:
        json.dump(data, f, indent=2)
    rows, reasons = [], []
    for d in data.get('disks', []):
        why = failed_checks(d)
        rows.append(dict(device=d.get('device'), model=d.get('model'), serial=d.get('serial'),
                         verdict=d.get('verdict'), reasons=why))
        if d.get('verdict') != 'PASS':
            reasons.append('%s (%s %s): %s' % (d.get('device'), d.get('model'),
                                               d.get('serial'), '; '.join(why) or 'failed'))
    failed = [r['device'] for r in rows if r['verdict'] != 'PASS']
    module.exit_json(changed=False, exit_code=rc, disks=rows, failed_disks=failed, reasons=reasons,
                     passed=data.get('passed'), profile=data.get('profile'))


if __name__ == '__main__':
    main()
