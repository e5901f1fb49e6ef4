import { startSimulator } from './simulator/listen.js';
import { createDataFactory } from './support/data/factories.js';
const combos: Record<string, object> = JSON.parse(process.argv[2]!);
for (const [name, options] of Object.entries(combos)) {
  const sim = await startSimulator({ ...options, availabilityDelayMs: 0, backgroundRecords: 0 } as never);
  const base = sim.baseUrl;
  const tok = await fetch(`${base}/sandbox/v1/token.oauth2`, { method: 'POST', headers: { authorization: 'Basic ' + Buffer.from('contract-client:contract-secret').toString('base64'), 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&scope=bci' }).then((r) => r.json());
  const h = { authorization: `Bearer ${tok.access_token}`, 'content-type': 'application/json' };
  const data = createDataFactory({ market: 'SE', seed: 1, runId: 'probe', scope: name } as never);
  const put = async (p: object) => { const r = await fetch(`${base}/consumer-intelligence/sandbox/v1/persons`, { method: 'PUT', headers: h, body: JSON.stringify(p) }); return r.json(); };
  const del = async (p: object) => { await fetch(`${base}/consumer-intelligence/sandbox/v1/persons`, { method: 'DELETE', headers: h, body: JSON.stringify(p) }); };
  const get = async (g: string) => { const r = await fetch(`${base}/consumer-intelligence/v3/markets/SE/persons/${g}`, { headers: h }); const b: any = await r.json(); const { addressList, phoneList, firstNames, preferredFirstName, familyName, metadata, ...rest } = b.data ?? b; return JSON.stringify(rest); };
  const a = data.person(); const b = data.person(); const c = data.person();
  const gedi = (x: any) => x.gedi ?? x.data?.gedi;
  const ga = gedi(await put(a)); const gb = gedi(await put(b)); const gc = gedi(await put(c));
  console.log(`== ${name} plain:`, await get(ga));
  await put({ ...a, deregistered: true, deregisteredReason: 'EMIGRATED' });
  console.log(`== ${name} deregistered:`, await get(ga));
  const rel = { ...(b as any).relationshipList[0], dateOfDeath: '2001-01-01', deregistered: true };
  await put({ ...b, relationshipList: [rel] });
  console.log(`== ${name} relative:`, await get(gb));
  await put({ ...b, merged: { gedi: ga } });
  console.log(`== ${name} merged:`, await get(gb));
  await del({ ...c, removed: true });
  console.log(`== ${name} removed:`, await get(gc));
  await sim.close();
}
