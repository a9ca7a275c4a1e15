#!/usr/bin/python
# -*- coding: utf-8 -*-
DOCUMENTATION = r'''
module: shortstroke_fleet_summary
short_description: One summary of a fleet's qualification
description:
  - Runs on the controller after the hosts' reports were fetched to
    I(dir)/HOST/qualify.json and I(dir)/HOST/qualify.html. Writes
    I(dir)/fleet.json and a self-contained I(dir)/fleet.html - a table of host,
    disk, verdict and reasons, each host linked to its own report. A host with
    no report (its qualification could not run) is a row of its own.
options:
  dir: {type: path, required: true}
  hosts: {type: list, elements: str, required: true}
'''

import datetime
import html
import json
import os

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.shortstroke import failed_checks


def host_rows(d, host):
    path = os.path.join(d, host, 'qualify.json')
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        return [dict(host=host, device=None, model=None, serial=None, verdict='NO REPORT',
                     reasons=['no qualification report: %s' % e], report=None)]
    report = '%s/qualify.html' % host if os.path.exists(
        os.path.join(d, host, 'qualify.html')) else None
    rows = []
    for x in data.get('disks', []):
        rows.append(dict(host=host, device=x.get('device'), model=x.get('model'),
                         serial=x.get('serial'), verdict=x.get('verdict'),
                         reasons=failed_checks(x), report=report))
    return rows


PAGE = '''<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>shortstroke fleet qualification</title>
<style>
body { font-family: sans-serif; margin: 2em; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #eee; }
.PASS { color: #060; font-weight: bold; }
.FAIL, .NO { color: #b00; font-weight: bold; }
</style></head><body>
<h1>Fleet qualification</h1>
<p>%(summary)s</p>
<table>
<tr><th>host</th><th>disk</th><th>model</th><th>serial</th><th>verdict</th><th>reasons</th></tr>
%(rows)s
</table>
<p>Written %(time)s by shortstroke_fleet_summary.</p>
</body></html>
'''


def page(rows, hosts, failed_hosts):
    e = html.escape
    out = []
    for r in rows:
        host = e(r['host'])
        if r['report']:
            host = '<a href="%s">%s</a>' % (e(r['report']), host)
        out.append('<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td>'
                   '<td class="%s">%s</td><td>%s</td></tr>' % (
                       host, e(r['device'] or ''), e(r['model'] or ''), e(r['serial'] or ''),
                       e((r['verdict'] or '').split()[0]), e(r['verdict'] or ''),
                       '<br>'.join(e(x) for x in r['reasons'])))
    summary = '%d hosts, %d disks, %d failed; hosts with a failure: %s' % (
        len(hosts), len([r for r in rows if r['device']]),
        len([r for r in rows if r['verdict'] != 'PASS']),
        e(', '.join(failed_hosts)) or 'none')
    return PAGE % dict(summary=summary, rows='\n'.join(out),
                       time=datetime.datetime.utcnow().strftime('%Y-%m-%d %H:%M UTC'))


def main():
    module = AnsibleModule(argument_spec=dict(dir=dict(type='path', required=True),
                                              hosts=dict(type='list', elements='str',
                                                         required=True)),
                           supports_check_mode=True)
    d, hosts = module.params['dir'], module.params['hosts']
    rows = []
    for h in hosts:
        rows += host_rows(d, h)
    failed_hosts = sorted({r['host'] for r in rows if r['verdict'] != 'PASS'})
    summary = dict(hosts=hosts, failed_hosts=failed_hosts, disks=rows,
                   passed=len([r for r in rows if r['verdict'] == 'PASS']),
                   failed=len([r for r in rows if r['verdict'] != 'PASS']))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'fleet.json'), 'w') as f:
        json.dump(summary, f, indent=2)
    with open(os.path.join(d, 'fleet.html'), 'w') as f:
        f.write(page(rows, hosts, failed_hosts))
    module.exit_json(changed=True, json=os.path.join(d, 'fleet.json'),
                     html=os.path.join(d, 'fleet.html'), failed_hosts=failed_hosts,
                     passed_count=summary['passed'], failed_count=summary['failed'])


if __name__ == '__main__':
    main()
