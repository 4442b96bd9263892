import { actionDataSchema } from '@sparks/contracts';
import { FlowEngine } from './engine';
import { FLOWS } from './index';
import type { FlowOutput, FlowPorts, SharingEntry, SharingPlace, SharingPorts, SharingWhere } from './ports';
import { BROWSE_PAGE_SIZE } from './sharing';

/** A SharePoint of one site ("Bakery") with a library, a folder, files of every kind, and a long folder. */
class FakeSharing implements SharingPorts {
  imported: Array<{ file: { driveId: string; itemId: string }; where: SharingWhere }> = [];
  room = 10;
  state: 'ready' | 'notConnected' = 'ready';
  status = () =>
    Promise.resolve(
      this.state === 'ready' ? { status: 'ready' as const, service: 'sharepoint' as const } : { status: this.state },
    );
  list = (place: SharingPlace): Promise<{ entries: SharingEntry[] }> => {
    const key = place.kind === 'folder' ? `${place.driveId}/${place.itemId ?? ''}` : place.kind;
    const levels: Record<string, SharingEntry[]> = {
      sites: [{ name: 'Bakery', kind: 'open', place: { kind: 'site', siteId: 'site-1' } }],
      site: [{ name: 'Documents', kind: 'open', place: { kind: 'folder', driveId: 'd1' } }],
      'd1/': [
        { name: 'Menus', kind: 'open', place: { kind: 'folder', driveId: 'd1', itemId: 'f1' } },
        { name: 'Long', kind: 'open', place: { kind: 'folder', driveId: 'd1', itemId: 'f2' } },
        { name: 'Prices.xlsx', kind: 'unreadable', reason: 'type' },
      ],
      'd1/f1': [{ name: 'Menu.pdf', kind: 'pick', file: { driveId: 'd1', itemId: 'i1' } }],
      'd1/f2': Array.from({ length: 25 }, (_, i) => ({
        name: `File ${String(i).padStart(2, '0')}.pdf`,
        kind: 'pick' as const,
        file: { driveId: 'd1', itemId: `l${i}` },
      })),
    };
    return Promise.resolve({ entries: levels[key] ?? [] });
  };
  importFile = (file: { driveId: string; itemId: string }, where: SharingWhere) => {
    if (this.room <= 0) return Promise.resolve({ status: 'limit' as const, limit: 10 });
    this.imported.push({ file, where });
    return Promise.resolve({ status: 'queued' as const });
  };
}

const engine = new FlowEngine(FLOWS);

function portsWith(sharing: SharingPorts | undefined, language: 'en' | 'es' = 'en'): FlowPorts {
  const none = () => Promise.resolve(undefined);
  return {
    account: {
      profile: () =>
        Promise.resolve({ firstname: 'Ana', lastname: '', username: 'a@x.com', language, plan: 'zaphire' }),
      updateProfile: () => Promise.resolve(),
      deactivate: () => Promise.resolve(),
      billing: () => Promise.reject(new Error('not used')),
    },
    sparks: {
      current: () =>
        Promise.resolve({ id: 's1', name: 'Espiga', initialMessage: 'Hi', language, sysPrompt: '', business: 'b' }),
      update: () => Promise.resolve(),
      create: () => Promise.resolve({ limit: 0 }),
      newest: none,
    },
    tests: { count: () => Promise.resolve(0), create: none },
    objectives: { status: none, setStatus: () => Promise.resolve() },
    deploy: {
      allowance: () => Promise.resolve({ limit: 1, used: 0, published: false }),
      published: () => Promise.resolve([]),
      unpublish: none,
      revokeToken: () => Promise.resolve(false),
    },
    help: { answer: () => Promise.resolve('help') },
    model: { readBusiness: () => Promise.resolve({}), writeInstructions: none, readReply: none },
    sharing,
  };
}

const optionsOf = (outputs: FlowOutput[]) => {
  const widget = outputs.find((o) => o.type === 'action' && o.data.type === 'options');
  return widget?.type === 'action' && widget.data.type === 'options' ? widget.data.options : [];
};
const texts = (outputs: FlowOutput[]) => outputs.filter((o) => o.type === 'ai').map((o) => o.data.content);

async function say(text: string, state: object | undefined, ports: FlowPorts) {
  const result = await engine.run('builder', text, { language: 'en', state, ports });
  for (const o of result.outputs)
    if (o.type === 'action') expect(actionDataSchema.safeParse(o.data).success).toBe(true);
  return result;
}

describe('the builder chat browses SharePoint and imports a picked file (issue 20)', () => {
  it('goes site → library → folder, lists unreadable files with why, and queues the picked file with its path', async () => {
    const sharing = new FakeSharing();
    const ports = portsWith(sharing);
    let r = await say('Add a document from SharePoint', undefined, ports);
    expect(texts(r.outputs)).toEqual(['Which SharePoint site is the document in?']);
    expect(optionsOf(r.outputs)).toEqual([
      { label: 'Bakery', value: 'open:0' },
      { label: 'Done', value: 'done' },
    ]);
    r = await say('open:0', r.state, ports);
    expect(texts(r.outputs)).toEqual(['Which document library of Bakery?']);
    r = await say('Documents', r.state, ports); // typed, not clicked
    expect(texts(r.outputs)[0]).toBe('In **Sites/Bakery/Documents**: pick a file to add it, or open a folder.');
    const card = r.outputs.find((o) => o.type === 'action' && o.data.type === 'card');
    expect(card?.data).toMatchObject({
      info: [{ label: 'Prices.xlsx', value: 'Only PDF, Word (.docx) and text (.txt, .md) files' }],
    });
    expect(optionsOf(r.outputs).map((o) => o.label)).toEqual(['Folder: Menus', 'Folder: Long', 'Back', 'Done']);
    r = await say('open:0', r.state, ports);
    r = await say('pick:0', r.state, ports);
    expect(sharing.imported).toEqual([
      {
        file: { driveId: 'd1', itemId: 'i1' },
        where: { site: 'Bakery', library: 'Documents', folders: ['Menus'], name: 'Menu.pdf' },
      },
    ]);
    expect(
      r.outputs.some((o) => o.type === 'action' && o.data.type === 'event' && o.data.event === 'documentImport'),
    ).toBe(true);
    // Read meanwhile: the hidden start keyword offers another file again, the browsing goes on.
    r = await say('inicio', r.state, ports);
    expect(r.state.dialog?.name).toBe('browse');
    r = await say('another', r.state, ports);
    expect(optionsOf(r.outputs).map((o) => o.label)).toEqual(['Menu.pdf', 'Back', 'Done']);
    r = await say('done', r.state, ports);
    expect(r.state.dialog).toBeUndefined();
  });

  it(`pages a long folder by ${BROWSE_PAGE_SIZE}`, async () => {
    const ports = portsWith(new FakeSharing());
    let r = await say('add a document from sharepoint', undefined, ports);
    for (const answer of ['open:0', 'open:0', 'open:1']) r = await say(answer, r.state, ports);
    expect(texts(r.outputs)[0]).toBe(
      'In **Sites/Bakery/Documents/Long** (1–20 of 25): pick a file to add it, or open a folder.',
    );
    expect(optionsOf(r.outputs)).toHaveLength(BROWSE_PAGE_SIZE + 3);
    r = await say('more', r.state, ports);
    expect(optionsOf(r.outputs).map((o) => o.label)[0]).toBe('File 20.pdf');
    expect(optionsOf(r.outputs)).toHaveLength(5 + 2);
  });

  it('a crafted value that was not shown imports nothing', async () => {
    const sharing = new FakeSharing();
    const ports = portsWith(sharing);
    let r = await say('add a document from sharepoint', undefined, ports);
    r = await say('pick:7', r.state, ports);
    expect(texts(r.outputs)[0]).toBe('That is not one of the files I showed you. Please pick one of these.');
    r = await say('pick:b!other-tenant-drive:01OTHER', r.state, ports);
    expect(sharing.imported).toEqual([]);
  });

  it("tells the plan's document limit with the dialog's event, and what is missing in the user's language", async () => {
    const sharing = new FakeSharing();
    sharing.room = 0;
    const ports = portsWith(sharing);
    let r = await say('add a document from sharepoint', undefined, ports);
    for (const answer of ['open:0', 'open:0', 'open:0', 'pick:0']) r = await say(answer, r.state, ports);
    expect(r.outputs.find((o) => o.type === 'action' && o.data.type === 'event')?.data).toMatchObject({
      event: 'documentLimit',
      limit: 10,
    });
    sharing.state = 'notConnected';
    const es = await engine.run('builder', 'Añadir un documento de SharePoint', {
      language: 'es',
      state: undefined,
      ports: portsWith(sharing, 'es'),
    });
    expect(texts(es.outputs)[0]).toMatch(/^Este Spark aún no está conectado a Microsoft 365/);
    const none = await say('add a document from onedrive', undefined, portsWith(undefined));
    expect(texts(none.outputs)[0]).toMatch(/not set up on this server/);
  });
});
