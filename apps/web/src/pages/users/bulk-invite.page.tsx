import { DownloadOutlined, DownOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Dropdown, Progress, Space, Table, Tag, Typography, Upload } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { MSG } from '@helix/shared';
import {
  blockingRows,
  checkInviteRows,
  rowsToSend,
  type BulkInviteBatchView,
  type BulkInviteRow,
  type CheckedRow,
} from '@helix/shared/schemas/invite';
import type { TenantUserList } from '@helix/shared/schemas/tenant-user';
import { ApiError } from '../../api/api-error';
import { toastError, toastSuccess } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { readBulkFile, SAMPLE_CSV } from './bulk-file';
import { downloadTable, safeTable } from '../../ui/export-table';
import { bulkInvite, fetchBulkBatch, fetchTenantUsers } from './users.api';

const POLL_MS = 1000;

function downloadSample() {
  const url = URL.createObjectURL(new Blob([SAMPLE_CSV], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'bulk-invite-sample.csv';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * /user/settings/users-list/bulk-user-invite: upload a .csv or .xlsx, see every row with its problems
 * before anything is sent, export that table, send. The batch's progress is polled from the server
 * (GET /user/bulk-invite/:id, its id in the address as ?batch=), so a reload picks it up again.
 */
export function BulkInvitePage() {
  const [params, setParams] = useSearchParams();
  const batchId = Number(params.get('batch')) || null;
  const [seats, setSeats] = useState<TenantUserList | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [rows, setRows] = useState<BulkInviteRow[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const [existingFromServer, setExistingFromServer] = useState<string[]>([]);
  const [sending, setSending] = useState(false);
  const [batch, setBatch] = useState<BulkInviteBatchView | null>(null);
  const announced = useRef(false);

  useEffect(() => {
    const controller = new AbortController();
    fetchTenantUsers({ signal: controller.signal, toast: false })
      .then(setSeats)
      .catch(() => {
        if (!controller.signal.aborted) toastError(MSG.failedLoadUsers);
      });
    return () => controller.abort();
  }, [batch?.status]);

  // Follow the batch named in the address until it is done.
  useEffect(() => {
    if (!batchId) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const view = await fetchBulkBatch(batchId, { toast: false });
        if (stopped) return;
        setBatch(view);
        if (view.status === 'done') {
          if (!announced.current && view.failed === 0) toastSuccess(MSG.usersUploaded);
          announced.current = true;
          return;
        }
      } catch {
        if (stopped) return;
      }
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [batchId]);

  const existing = useMemo(
    () => new Set([...(seats?.users.map((u) => u.email.toLowerCase()) ?? []), ...existingFromServer]),
    [seats, existingFromServer],
  );
  const checked = useMemo(() => checkInviteRows(rows, existing), [rows, existing]);
  const toSend = rowsToSend(checked);
  const blocking = blockingRows(checked);
  const duplicates = checked.filter((r) => r.problems.includes('duplicate')).length;
  const overLimit = seats ? seats.totalUsers + toSend.length > seats.userLimit : false;

  const onFile = async (file: File) => {
    setFileError(null);
    setExistingFromServer([]);
    setFileName(file.name);
    const result = await readBulkFile(file);
    if (!result.ok) {
      setRows([]);
      setFileError(result.message);
      return;
    }
    setRows(result.rows);
  };

  const send = async () => {
    setSending(true);
    try {
      const started = await bulkInvite(
        toSend.map((r) => ({ name: r.name, email: r.email, note: r.note })),
        { toast: false },
      );
      announced.current = false;
      setRows([]);
      setFileName(null);
      setParams({ batch: String(started.batchId) });
    } catch (error) {
      if (error instanceof ApiError) {
        toastError(error.statusCode > 0 ? error.message : MSG.failedInviteUser);
        // 409 with the addresses that already exist: marked in the preview, to remove and retry.
        if (error.statusCode === 409 && error.errors) setExistingFromServer(Object.keys(error.errors));
      } else {
        toastError(MSG.failedInviteUser);
      }
    } finally {
      setSending(false);
    }
  };

  const exportPreview = (format: 'csv' | 'xlsx') =>
    void downloadTable(
      safeTable(
        ['Row', 'Name', 'Email', 'Note', 'Problems'],
        checked.map((r) => [r.index + 1, r.name, r.email, r.note, r.problemText.join('; ')]),
      ),
      'bulk-invite-preview',
      format,
    );

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
              <Table
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
            <Dropdown
              disabled={checked.length === 0}
              trigger={['click']}
              menu={{
                items: [
                  { key: 'csv', label: 'CSV' },
                  { key: 'xlsx', label: 'XLSX' },
                ],
                onClick: ({ key }) => exportPreview(key as 'csv' | 'xlsx'),
              }}
            >
              <Button disabled={checked.length === 0} data-testid="export-preview">
                Export <DownOutlined />
              </Button>
            </Dropdown>
            <Button
              type="primary"
              disabled={toSend.length === 0 || blocking.length > 0 || overLimit}
              loading={sending}
              onClick={() => void send()}
              data-testid="send-invites"
            >
              Send {toSend.length} invitations
            </Button>
          </Space>
          {fileError && <Alert type="error" showIcon title={fileError} />}
          {checked.length > 0 && (
            <Typography.Paragraph data-testid="bulk-summary">
              {checked.length} rows: {toSend.length} to invite, {duplicates} duplicates removed,{' '}
              {blocking.length} with problems.
            </Typography.Paragraph>
          )}
          {overLimit && (
            <Alert type="error" showIcon title={MSG.usersLimitExceeds} data-testid="limit-exceeded" />
          )}
          {blocking.length > 0 && <Alert type="warning" showIcon title={MSG.bulkRowsInvalid} />}
          {existingListed.length > 0 && (
            <Alert
              type="error"
              showIcon
              title={MSG.bulkExistingUsers}
              description={existingListed.map((r) => r.email).join(', ')}
              data-testid="existing-users"
            />
          )}
          <Table<CheckedRow>
            rowKey="index"
            size="small"
            dataSource={checked}
            locale={{ emptyText: MSG.noBulkRows }}
            pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
            rowClassName={(r) => (r.problems.length ? 'bulk-row-problem' : '')}
            columns={[
              { title: 'Row', key: 'row', width: 70, render: (_, r) => r.index + 1 },
              { title: 'Name', dataIndex: 'name', key: 'name' },
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
