import { ERROR_CODES } from '@helix/shared/error-codes';
import { DownloadOutlined, UploadOutlined, WarningOutlined } from '@ant-design/icons';
import { Alert, Button, Progress, Space, Spin, Tag, Typography, Upload } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { MSG } from '@helix/shared';
import { problemRowsTable, type BulkFileRow } from '@helix/shared/bulk/bulk-file';
import { blockingRows, checkInviteRows, rowsToSend, type CheckedRow } from '@helix/shared/schemas/invite';
import { ApiError } from '../../api/api-error';
import { abilitiesOf } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { toastError, toastSuccess } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { ExportMenu, type ExportFormat } from '../../ui/export-menu';
import { readBulkFile, SAMPLE_CSV } from './bulk-file';
import { downloadFile } from '../../ui/download-file';
import { downloadTable } from '../../ui/download-table';
import { bulkInvite } from './users.api';
import { allUsersQuery, bulkBatchQuery, userKeys } from './users.queries';
import { ResponsiveTable } from '../../ui/responsive-table';

function downloadSample() {
  // With a byte-order mark, so Excel opens the accented sample name right.
  downloadFile(
    new Blob(['\uFEFF', SAMPLE_CSV], { type: 'text/csv;charset=utf-8' }),
    'bulk-invite-sample.csv',
  );
}

/** The server's refusal of some sent rows (422, errors keyed `users.{index of the sent rows}`). */
function refusedRows(errors: Record<string, string>, sent: readonly number[]): Map<number, string> {
  const refused = new Map<number, string>();
  for (const [key, text] of Object.entries(errors)) {
    const match = /^users\.(\d+)$/.exec(key);
    const index = match ? sent[Number(match[1])] : undefined;
    if (index !== undefined) refused.set(index, text);
  }
  return refused;
}

/**
 * /user/settings/users-list/bulk-user-invite: upload a .csv or .xlsx (read by the shared bulk-file
 * reader), see every row with its problems before anything is sent, export that table, download the
 * rows with problems, send all rows or only the valid ones. Addresses the server finds to be users
 * already (409) and rows it refuses (422) are marked in the preview, and the rest can be sent. The
 * batch's progress is polled from the server (GET /user/bulk-invite/:id, its id in the address as
 * ?batch=), so a reload picks it up again.
 */
export function BulkInvitePage() {
  const [params, setParams] = useSearchParams();
  const batchId = Number(params.get('batch')) || null;
  const queryClient = useQueryClient();
  const [fileName, setFileName] = useState<string | null>(null);
  const [rows, setRows] = useState<BulkFileRow[]>([]);
  const [warnings, setWarnings] = useState<string[]>([]);
  const [reading, setReading] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const [existingFromServer, setExistingFromServer] = useState<string[]>([]);
  const [refused, setRefused] = useState<Map<number, string>>(new Map());
  const [sending, setSending] = useState(false);
  const announced = useRef(false);

  const seatsQuery = useQuery(allUsersQuery());
  const seats = seatsQuery.data ?? null;
  useEffect(() => {
    if (seatsQuery.errorUpdatedAt > 0) toastError(MSG.failedLoadUsers);
  }, [seatsQuery.errorUpdatedAt]);

  // Follow the batch named in the address until it is done.
  const batch = useQuery({ ...bulkBatchQuery(batchId ?? 0), enabled: batchId !== null }).data ?? null;
  const batchStatus = batch?.status;
  const batchFailed = batch?.failed;
  useEffect(() => {
    // The seats as they are once the batch has run.
    if (batchStatus) void queryClient.invalidateQueries({ queryKey: userKeys.everyone() });
  }, [batchStatus, queryClient]);
  useEffect(() => {
    if (batchStatus !== 'done' || announced.current) return;
    if (batchFailed === 0) toastSuccess(MSG.usersUploaded);
    announced.current = true;
  }, [batchStatus, batchFailed]);

  const existing = useMemo(
    () => new Set([...(seats?.users.map((u) => u.email.toLowerCase()) ?? []), ...existingFromServer]),
    [seats, existingFromServer],
  );
  const checked = useMemo(
    () =>
      checkInviteRows(rows, existing).map((row): CheckedRow => {
        const reason = refused.get(row.index);
        if (!reason || row.problems.length > 0) return row;
        return { ...row, problems: ['refused'], problemText: [reason] };
      }),
    [rows, existing, refused],
  );
  const lines = useMemo(() => rows.map((r) => r.line), [rows]);
  const toSend = rowsToSend(checked);
  const blocking = blockingRows(checked);
  const duplicates = checked.filter((r) => r.problems.includes('duplicate')).length;
  const overLimit = seats ? seats.totalUsers + toSend.length > seats.userLimit : false;
  // Seats still free on the plan: the rows that fit can be sent now (the server checks again).
  const seatsLeft = seats ? Math.max(0, seats.userLimit - seats.totalUsers) : 0;
  const mayBuySeats = abilitiesOf(useSessionUser()).manageBilling;

  const onFile = async (file: File) => {
    setFileError(null);
    setExistingFromServer([]);
    setRefused(new Map());
    setWarnings([]);
    setRows([]);
    setFileName(file.name);
    setReading(true);
    try {
      const result = await readBulkFile(file);
      if (!result.ok) {
        setFileError(result.message);
        return;
      }
      setRows(result.rows);
      setWarnings(result.warnings);
    } finally {
      setReading(false);
    }
  };

  const send = async (rowsToInvite = toSend) => {
    setSending(true);
    const sent = rowsToInvite.map((r) => r.index);
    try {
      const started = await bulkInvite(
        rowsToInvite.map((r) => ({ name: r.name, email: r.email, note: r.note })),
        { toast: false },
      );
      announced.current = false;
      setRows([]);
      setWarnings([]);
      setFileName(null);
      setParams({ batch: String(started.batchId) });
    } catch (error) {
      if (error instanceof ApiError) {
        // 409: addresses that are users already; 422: rows the server refused. Both are marked in the
        // preview as problems, and the other rows can be sent.
        if (error.code === ERROR_CODES.bulkExistingUsers && error.errors) {
          const found = Object.keys(error.errors).map((e) => e.toLowerCase());
          setExistingFromServer((before) => [...new Set([...before, ...found])]);
          toastError(MSG.bulkExistingMarked);
        } else if (error.code === ERROR_CODES.bulkRowsInvalid && error.errors) {
          const marked = refusedRows(error.errors, sent);
          setRefused((before) => new Map([...before, ...marked]));
          toastError(marked.size > 0 ? MSG.bulkRowsRefused : error.message);
        } else {
          toastError(error.statusCode > 0 ? error.message : MSG.failedInviteUser);
        }
      } else {
        toastError(MSG.failedInviteUser);
      }
    } finally {
      setSending(false);
    }
  };

  const exportPreview = (format: ExportFormat) =>
    void downloadTable(
      {
        header: ['Row', 'Name', 'Email', 'Note', 'Problems'],
        rows: checked.map((r) => [
          lines[r.index] ?? r.index + 1,
          r.name,
          r.email,
          r.note,
          r.problemText.join('; '),
        ]),
      },
      'bulk-invite-preview',
      format,
    );

  const downloadProblems = () => {
    const [header = [], ...problemRows] = problemRowsTable(checked, lines);
    void downloadTable({ header: header.map(String), rows: problemRows }, 'bulk-invite-problems', 'csv');
  };

  const done = batch?.status === 'done';
  const settled = batch ? batch.sent + batch.failed : 0;
  const percent = batch && batch.total > 0 ? Math.floor((settled / batch.total) * 100) : 0;
  const existingListed = blocking.filter((r) => r.problems.includes('existing'));

  return (
    <section className="page bulk-invite-page">
      <PageTitle title="Bulk Invite" />
      <div className="page-toolbar">
        <Typography.Title level={1} className="page-title">
          Bulk Invite
        </Typography.Title>
        <Space wrap>
          <Link to="/user/settings/users-list">Back to Users</Link>
          <Button icon={<DownloadOutlined />} onClick={downloadSample} data-testid="sample-file">
            Sample file
          </Button>
        </Space>
      </div>

      {batch && (
        <div className="bulk-progress" data-testid="bulk-progress">
          <Typography.Text>
            {done
              ? `${batch.sent} of ${batch.total} invitations sent`
              : `${MSG.bulkSending}: ${settled} of ${batch.total}`}
          </Typography.Text>
          <Progress
            percent={percent}
            format={(p) => `${p}%`}
            status={done ? (batch.failed ? 'exception' : 'success') : 'active'}
          />
          {done && batch.failed === 0 && <Alert type="success" showIcon title={MSG.usersUploaded} />}
          {batch.failures.length > 0 && (
            <>
              <Alert type="warning" showIcon title={MSG.bulkFailedRows} />
              <ResponsiveTable
                rowKey="email"
                size="small"
                dataSource={batch.failures}
                pagination={{ pageSize: 20, hideOnSinglePage: true }}
                columns={[
                  { title: 'Name', dataIndex: 'name', key: 'name' },
                  { title: 'Email', dataIndex: 'email', key: 'email' },
                  { title: 'Reason', dataIndex: 'reason', key: 'reason' },
                ]}
              />
            </>
          )}
        </div>
      )}

      {(!batchId || done) && (
        <>
          <Space wrap style={{ margin: '16px 0' }}>
            <Upload
              accept=".csv,.xlsx"
              maxCount={1}
              showUploadList={false}
              beforeUpload={(file) => {
                void onFile(file);
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} data-testid="bulk-upload">
                Upload .csv or .xlsx
              </Button>
            </Upload>
            {fileName && <Typography.Text>{fileName}</Typography.Text>}
            {reading && <Spin size="small" description={MSG.bulkReading} data-testid="bulk-reading" />}
            <ExportMenu
              onExport={exportPreview}
              disabled={checked.length === 0}
              testId="export-preview"
              align="start"
            />
            {blocking.length > 0 && (
              <Button icon={<WarningOutlined />} onClick={downloadProblems} data-testid="download-problems">
                {MSG.bulkDownloadProblems(blocking.length)}
              </Button>
            )}
            <Button
              type="primary"
              disabled={toSend.length === 0 || overLimit || reading}
              loading={sending}
              onClick={() => void send()}
              data-testid="send-invites"
            >
              {blocking.length > 0 ? MSG.bulkSendValid(toSend.length) : MSG.bulkSendAll(toSend.length)}
            </Button>
          </Space>
          {fileError && <Alert type="error" showIcon title={fileError} data-testid="bulk-file-error" />}
          {warnings.length > 0 && (
            <Alert
              type="warning"
              showIcon
              title={warnings.length === 1 ? warnings[0] : undefined}
              description={
                warnings.length > 1 ? (
                  <ul className="bulk-warnings">
                    {warnings.map((w) => (
                      <li key={w}>{w}</li>
                    ))}
                  </ul>
                ) : undefined
              }
              data-testid="bulk-warnings"
            />
          )}
          {/* Counted once the school's users are known (or could not be read): never before. */}
          {checked.length > 0 && !seatsQuery.isPending && (
            <Typography.Paragraph data-testid="bulk-summary">
              {checked.length} rows: {toSend.length} to invite, {duplicates} duplicates removed,{' '}
              {blocking.length} with problems.
            </Typography.Paragraph>
          )}
          {overLimit && (
            <Alert
              type="error"
              showIcon
              title={MSG.usersLimitExceeds}
              description={
                <>
                  <span data-testid="seats-left">{MSG.bulkSeatsLeft(seatsLeft, toSend.length)}</span>{' '}
                  {mayBuySeats ? (
                    <Link to="/user/settings/subscription">{MSG.seatsAddOnSubscription}</Link>
                  ) : (
                    MSG.seatsAskOwner
                  )}
                </>
              }
              action={
                seatsLeft > 0 ? (
                  <Button
                    size="small"
                    loading={sending}
                    disabled={reading}
                    onClick={() => void send(toSend.slice(0, seatsLeft))}
                    data-testid="send-first"
                  >
                    {MSG.bulkSendFirst(seatsLeft)}
                  </Button>
                ) : undefined
              }
              data-testid="limit-exceeded"
            />
          )}
          {blocking.length > 0 && (
            <Alert
              type="warning"
              showIcon
              title={MSG.bulkRowsWithProblems(blocking.length, toSend.length)}
              data-testid="bulk-problems"
            />
          )}
          {existingListed.length > 0 && (
            <Alert
              type="error"
              showIcon
              title={MSG.bulkExistingMarked}
              description={existingListed.map((r) => r.email).join(', ')}
              data-testid="existing-users"
            />
          )}
          <ResponsiveTable<CheckedRow>
            rowKey="index"
            size="small"
            dataSource={checked}
            locale={{ emptyText: MSG.noBulkRows }}
            pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
            rowClassName={(r) => (r.problems.length ? 'bulk-row-problem' : '')}
            columns={[
              { title: 'Row', key: 'row', width: 70, render: (_, r) => lines[r.index] ?? r.index + 1 },
              { title: 'Name', dataIndex: 'name', key: 'name', role: 'title' },
              { title: 'Email', dataIndex: 'email', key: 'email' },
              { title: 'Note', dataIndex: 'note', key: 'note', ellipsis: true },
              {
                title: 'Problems',
                key: 'problems',
                render: (_, r) =>
                  r.problemText.map((text) => (
                    <Tag
                      key={text}
                      color={r.problems.includes('duplicate') && r.problems.length === 1 ? 'default' : 'red'}
                    >
                      {text}
                    </Tag>
                  )),
              },
            ]}
          />
        </>
      )}
    </section>
  );
}
